#include "iomark/history/history.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <utility>

#include <nlohmann/json.hpp>

#include "iomark/results/csv_reader.hpp"
#include "iomark/results/results_json.hpp"
#include "schema.hpp"
#include "sqlite.hpp"

namespace iomark::history {

struct History::Connection {
  sqlite::Database db;
};

namespace {

// The columns RunRecord is read from, in read_record's order, and where they come from. The
// series' marks read as NULL on every run but the one they are about.
constexpr std::string_view kRunColumns =
    "SELECT r.id, r.series_id, r.position, r.started_at_ms, r.utc_offset_minutes, s.description, r.spec, "
    "r.queue_depth, r.hosts, r.status, r.error, s.source, r.iops, r.mb_per_s, r.average_ms, r.p99_ms, "
    "r.maximum_ms, r.cpu_percent, r.errors, r.average_service_ms, r.average_issue_lag_ms, "
    "CASE WHEN r.position = s.steady_run THEN s.steady_rounds END, s.steady, "
    "CASE WHEN r.position = s.max_iops_run THEN s.max_iops_figure END, s.max_iops_limit_ms, s.max_iops_finished";
constexpr int kRunColumnCount = 26;
constexpr std::string_view kRunsJoined = " FROM runs r JOIN series s ON s.id = r.series_id ";

RunRecord read_record(const sqlite::Statement& row) {
  RunRecord record;
  record.id = row.integer(0);
  record.series_id = row.integer(1);
  record.position = static_cast<std::uint32_t>(row.integer(2));
  record.start_time = {row.integer(3), static_cast<std::int32_t>(row.integer(4))};
  record.description = row.text(5);
  record.spec = row.text(6);
  if (auto depth = row.optional_integer(7)) record.queue_depth = static_cast<std::uint32_t>(*depth);
  record.hosts = row.text(8);
  record.status = row.text(9) == "failed" ? RunStatus::failed : RunStatus::completed;
  record.error = row.text(10);
  record.source = row.text(11);
  record.iops = row.optional_real(12);
  record.mb_per_s = row.optional_real(13);
  record.average_ms = row.optional_real(14);
  record.p99_ms = row.optional_real(15);
  record.maximum_ms = row.optional_real(16);
  record.cpu_percent = row.optional_real(17);
  record.errors = row.optional_integer(18);
  record.average_service_ms = row.optional_real(19);
  record.average_issue_lag_ms = row.optional_real(20);
  if (auto round = row.optional_integer(21)) {
    record.steady_state = SteadyMark{.round = static_cast<std::uint32_t>(*round), .steady = row.integer(22) != 0};
  }
  if (!row.is_null(23)) {
    record.max_iops = MaxIopsMark{.figure = row.text(23), .limit_ms = row.real(24), .finished = row.integer(25) != 0};
  }
  return record;
}

std::string joined_spec_names(const std::vector<access_specs::AccessSpec>& specs) {
  std::string names;
  for (const auto& spec : specs) names += (names.empty() ? "" : " + ") + spec.name;
  return names;
}

// The run's managers, sorted and joined: runs on the same hosts share this key whatever
// order the managers logged in.
std::string hosts_key(std::vector<std::string> managers) {
  std::sort(managers.begin(), managers.end());
  managers.erase(std::unique(managers.begin(), managers.end()), managers.end());
  std::string key;
  for (const auto& manager : managers) key += (key.empty() ? "" : ",") + manager;
  return key;
}

std::string histogram_buckets_json(const CompactLatencyHistogram& histogram) {
  auto buckets = nlohmann::json::array();
  const auto counts = histogram.span();
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] != 0) buckets.push_back({histogram.first_bucket() + i, counts[i]});
  }
  return buckets.dump();
}

// The iomark JSON of a run as stored: without the "summary" objects (derived data the reader
// ignores and summarize_run() rebuilds) and without indentation, a tenth of the written size,
// which is what lets a database hold 100,000 runs in a few hundred megabytes.
void drop_summaries(nlohmann::json& node) {
  if (node.is_object()) {
    node.erase("summary");
    for (auto& [key, child] : node.items()) drop_summaries(child);
  } else if (node.is_array()) {
    for (auto& child : node) drop_summaries(child);
  }
}

std::string stored_document(const results::SeriesResults& series) {
  auto document = nlohmann::json::parse(results::write_results_json(series));
  drop_summaries(document);
  return document.dump();
}

std::optional<std::int64_t> optional_depth(std::optional<std::uint32_t> depth) {
  if (!depth) return std::nullopt;
  return static_cast<std::int64_t>(*depth);
}

Result<void> insert_host(sqlite::Database& db, RunId run, const std::string& manager, const results::HostFacts& facts) {
  auto insert = db.prepare(
      "INSERT INTO run_hosts (run_id, manager, os_name, kernel_release, iomark_version, cpu_count) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  if (!insert) return fail(insert.error());
  insert->bind(1, run).bind(2, manager).bind(3, facts.os_name).bind(4, facts.kernel_release);
  insert->bind(5, facts.iomark_version).bind(6, static_cast<std::int64_t>(facts.cpu_count));
  return insert->run();
}

// The figures of a runs row, whichever way the run came in.
struct RunRow {
  SeriesId series{};
  std::uint32_t position{};
  results::WallClockTime start_time;
  RunStatus status{RunStatus::completed};
  std::string error;
  std::string spec;
  std::optional<std::uint32_t> queue_depth;
  std::string hosts;
  std::optional<double> iops, mb_per_s, average_ms, maximum_ms, cpu_percent, p99_ms;
  std::optional<double> average_service_ms, average_issue_lag_ms;
  std::optional<std::int64_t> errors;
  std::optional<std::string> document;
  std::optional<std::string> latency_histogram;
};

Result<RunId> insert_run(sqlite::Database& db, const RunRow& row) {
  auto insert = db.prepare(
      "INSERT INTO runs (series_id, position, started_at_ms, utc_offset_minutes, status, error, spec, queue_depth, "
      "hosts, iops, mb_per_s, average_ms, maximum_ms, cpu_percent, errors, document, p99_ms, latency_histogram, "
      "average_service_ms, average_issue_lag_ms) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)");
  if (!insert) return fail(insert.error());
  insert->bind(1, row.series).bind(2, static_cast<std::int64_t>(row.position)).bind(3, row.start_time.unix_ms);
  insert->bind(4, static_cast<std::int64_t>(row.start_time.utc_offset_minutes)).bind(5, to_string(row.status));
  insert->bind(6, row.error).bind(7, row.spec).bind_or_null(8, optional_depth(row.queue_depth)).bind(9, row.hosts);
  insert->bind_or_null(10, row.iops).bind_or_null(11, row.mb_per_s).bind_or_null(12, row.average_ms);
  insert->bind_or_null(13, row.maximum_ms);
  insert->bind_or_null(14, row.cpu_percent).bind_or_null(15, row.errors);
  insert->bind_or_null(16, row.document ? std::optional<std::string_view>(*row.document) : std::nullopt);
  insert->bind_or_null(17, row.p99_ms);
  insert->bind_or_null(18, row.latency_histogram ? std::optional<std::string_view>(*row.latency_histogram) : std::nullopt);
  insert->bind_or_null(19, row.average_service_ms).bind_or_null(20, row.average_issue_lag_ms);
  if (auto inserted = insert->run(); !inserted) return fail(inserted.error());
  return db.last_insert_rowid();
}

Variation variation_from(std::int64_t count, double sum, double sum_of_squares) {
  Variation variation;
  variation.runs = static_cast<std::size_t>(count);
  if (count == 0) return variation;
  const auto n = static_cast<double>(count);
  variation.mean = sum / n;
  if (count >= 2 && variation.mean != 0.0) {
    const double variance = std::max(0.0, (sum_of_squares - n * variation.mean * variation.mean) / (n - 1.0));
    variation.coefficient = std::sqrt(variance) / std::abs(variation.mean);
  }
  return variation;
}

// The series document: identity, plan, and the rounds or search of the series that made them.
Result<results::SeriesResults> read_series(sqlite::Database& db, SeriesId id) {
  auto query = db.prepare("SELECT document FROM series WHERE id = ?1");
  if (!query) return fail(query.error());
  query->bind(1, id);
  auto row = query->step();
  if (!row) return fail(row.error());
  if (!*row) return fail(ErrorCode::not_found, "no series " + std::to_string(id) + " in the history");
  return results::read_results_json(query->text(0), "history series " + std::to_string(id));
}

// Rewrites the series document with `change` applied and sets the columns `set_columns` names
// (?1 is the series, ?2 the document; the columns bind from ?3 in `bind_columns`), in one
// transaction, so that the document and the marks never disagree.
Result<void> update_series(sqlite::Database& db, SeriesId id,
                           const std::function<void(results::SeriesResults&)>& change, std::string_view set_columns,
                           const std::function<void(sqlite::Statement&)>& bind_columns) {
  auto transaction = sqlite::Savepoint::begin(db);
  if (!transaction) return fail(transaction.error());
  auto series = read_series(db, id);
  if (!series) return fail(series.error());
  change(*series);
  auto update = db.prepare("UPDATE series SET document = ?2, " + std::string(set_columns) + " WHERE id = ?1");
  if (!update) return fail(update.error());
  update->bind(1, id).bind(2, stored_document(*series));
  bind_columns(*update);
  if (auto updated = update->run(); !updated) return updated;
  return transaction->commit();
}

}  // namespace

std::string_view to_string(RunStatus status) noexcept {
  return status == RunStatus::failed ? "failed" : "completed";
}

std::string default_database_path() {
  if (const char* data = std::getenv("XDG_DATA_HOME"); data != nullptr && *data != '\0') {
    return std::string(data) + "/iomark/history.sqlite";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::string(home) + "/.local/share/iomark/history.sqlite";
  }
  return {};
}

History::History(std::unique_ptr<Connection> connection) : connection_(std::move(connection)) {}
History::History(History&&) noexcept = default;
History& History::operator=(History&&) noexcept = default;
History::~History() = default;

Result<History> History::open(const std::string& path, const OpenOptions& options) {
  const bool reading = options.access == Access::read_only;
  const auto named = [&path](const Error& error) { return fail(Error(error.code(), path + ": " + error.message())); };
  if (reading && path != ":memory:") {
    // SQLite reads a 0-byte file as an empty database; for a reader it holds no history, and
    // saying so names the mistake (a wrong path, a truncated copy) better than "no runs".
    std::error_code error;
    const auto size = std::filesystem::file_size(path, error);
    if (error) return named(Error(ErrorCode::not_found, "cannot open: " + error.message()));
    if (size == 0) return named(Error(ErrorCode::validation_error, "an empty file (0 bytes), not an iomark history"));
  }
  if (!reading) {
    // The default path's folders do not exist on a fresh account; SQLite creates only the file.
    if (const auto parent = std::filesystem::path(path).parent_path(); !parent.empty()) {
      std::error_code ignored;  // a failure shows as SQLite's "unable to open" just below
      std::filesystem::create_directories(parent, ignored);
    }
  }
  const auto wait = options.lock_wait.value_or(reading ? std::chrono::milliseconds(kReadLockWait)
                                                       : std::chrono::milliseconds(kWriteLockWait));
  auto db = sqlite::Database::open(path, reading ? sqlite::Access::read_only : sqlite::Access::read_write, wait);
  if (!db) return fail(db.error());
  if (auto ready = reading ? open_for_reading(*db) : migrate(*db); !ready) return named(ready.error());
  return History(std::make_unique<Connection>(Connection{std::move(*db)}));
}

Result<int> History::schema_version() {
  auto statement = connection_->db.prepare("PRAGMA user_version");
  if (!statement) return fail(statement.error());
  if (auto row = statement->step(); !row) return fail(row.error());
  return static_cast<int>(statement->integer(0));
}

Result<void> History::bulk(const std::function<Result<void>()>& writes) {
  auto transaction = sqlite::Savepoint::begin(connection_->db);
  if (!transaction) return fail(transaction.error());
  if (auto written = writes(); !written) return written;
  return transaction->commit();
}

Result<SeriesId> History::begin_series(const results::SeriesInfo& info,
                                       const std::optional<access_specs::TestPlan>& plan, std::string_view source,
                                       const results::SeriesRecords& records) {
  auto insert = connection_->db.prepare(
      "INSERT INTO series (started_at_ms, utc_offset_minutes, description, controller_version, source, document) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  if (!insert) return fail(insert.error());
  results::SeriesResults started{info, plan, {}, results::SeriesOutcome::in_progress, {}};
  started.precondition = records.precondition;
  started.pts_iops = records.pts_iops;
  const std::string document = stored_document(started);
  insert->bind(1, info.start_time.unix_ms).bind(2, static_cast<std::int64_t>(info.start_time.utc_offset_minutes));
  insert->bind(3, info.description).bind(4, info.iomark_version).bind(5, source).bind(6, document);
  if (auto inserted = insert->run(); !inserted) return fail(inserted.error());
  return connection_->db.last_insert_rowid();
}

Result<RunId> History::record_run(SeriesId series, std::uint32_t position, const results::RunResults& run,
                                  const results::RunSummary& summary) {
  const auto& all = summary.all;
  RunRow row;
  row.series = series;
  row.position = position;
  row.start_time = run.info.start_time;
  row.spec = all.spec_name.empty() ? joined_spec_names(run.info.specs) : all.spec_name;
  row.queue_depth = run.info.queue_depth ? run.info.queue_depth : all.queue_depth;
  std::vector<std::string> managers;
  for (const auto& manager : run.managers) managers.push_back(manager.name);
  row.hosts = hosts_key(std::move(managers));
  row.iops = all.rates.iops;
  row.mb_per_s = all.rates.mb_per_s;
  row.average_ms = all.average_response_ms();
  row.maximum_ms = all.maximum_response_ms();
  if (all.counters.latency.percentiles_cover_every_io()) {  // not when a Dynamo took part
    row.p99_ms = static_cast<double>(all.counters.latency.percentile(99.0).count()) / 1e6;
  }
  if (all.cpu) row.cpu_percent = all.cpu->total_percent;
  row.errors = static_cast<std::int64_t>(all.counters.error_count());
  if (all.rate_controlled()) {
    row.average_service_ms = all.average_service_ms();
    row.average_issue_lag_ms = all.average_issue_lag_ms();
  }
  row.document =
      stored_document(results::SeriesResults{results::SeriesInfo{}, std::nullopt, {run}, results::SeriesOutcome::completed, {}});
  row.latency_histogram = histogram_buckets_json(all.counters.latency);

  auto transaction = sqlite::Savepoint::begin(connection_->db);
  if (!transaction) return fail(transaction.error());
  auto id = insert_run(connection_->db, row);
  if (!id) return id;
  for (const auto& manager : run.managers) {
    if (auto inserted = insert_host(connection_->db, *id, manager.name, manager.host); !inserted) {
      return fail(inserted.error());
    }
  }
  if (auto committed = transaction->commit(); !committed) return fail(committed.error());
  return id;
}

Result<RunId> History::record_failure(SeriesId series, const results::FailedRun& failed) {
  RunRow row;
  row.series = series;
  row.position = failed.position;
  row.start_time = failed.info.start_time;
  row.status = RunStatus::failed;
  row.error = failed.error;
  row.spec = joined_spec_names(failed.info.specs);
  row.queue_depth = failed.info.queue_depth;
  return insert_run(connection_->db, row);
}

Result<void> History::record_steady_state(SeriesId series, std::uint32_t judged_position,
                                          const results::SteadyStateRecord& record) {
  return update_series(
      connection_->db, series, [&](results::SeriesResults& document) { document.steady_state = record; },
      "steady = ?3, steady_rounds = ?4, steady_run = ?5", [&](sqlite::Statement& update) {
        update.bind(3, std::int64_t{record.steady ? 1 : 0})
            .bind(4, static_cast<std::int64_t>(record.rounds.size()))
            .bind(5, static_cast<std::int64_t>(judged_position));
      });
}

Result<void> History::record_max_iops_search(SeriesId series, const results::MaxIopsRecord& record) {
  // A chosen index past the steps (a malformed record) marks no run rather than reading past them.
  std::optional<std::int64_t> chosen_run;
  if (record.chosen && *record.chosen < record.steps.size()) chosen_run = record.steps[*record.chosen].run;
  return update_series(
      connection_->db, series, [&](results::SeriesResults& document) { document.max_iops_search = record; },
      "max_iops_figure = ?3, max_iops_limit_ms = ?4, max_iops_run = ?5, max_iops_finished = ?6",
      [&](sqlite::Statement& update) {
        update.bind(3, record.figure).bind(4, record.limit_ms).bind_or_null(5, chosen_run);
        update.bind(6, std::int64_t{record.finished ? 1 : 0});
      });
}

Result<ImportSummary> History::import_results_csv(std::string_view text, std::string_view file_name) {
  auto all_series = results::read_results_csv(text, file_name);
  if (!all_series) return fail(all_series.error());
  ImportSummary summary;
  auto imported = bulk([&]() -> Result<void> {
    for (const auto& csv : *all_series) {
      const auto started = results::parse_iometer_time(csv.time_stamp).value_or(results::WallClockTime{});
      const results::SeriesInfo info{csv.test_type, csv.description, started, access_specs::RecordResults::all,
                                     csv.version};
      auto series = begin_series(info, std::nullopt, "import " + std::string(file_name));
      if (!series) return fail(series.error());
      ++summary.series;
      std::uint32_t position = 0;
      for (const auto& run : csv.runs) {
        ++position;
        const auto* all = run.find_row("ALL");
        if (all == nullptr) continue;  // a block without its ALL row has no figures to keep
        RunRow row;
        row.series = *series;
        row.position = position;
        row.start_time = results::parse_iometer_time(run.time_stamp).value_or(started);
        row.spec = all->spec;
        if (row.spec.empty() && run.spec_block) row.spec = joined_spec_names(csv.spec_blocks[*run.spec_block].specs);
        if (all->stats.queue_depth && *all->stats.queue_depth >= 0) {
          row.queue_depth = static_cast<std::uint32_t>(*all->stats.queue_depth);
        }
        std::vector<std::string> managers;
        for (const auto& csv_row : run.rows) {
          if (csv_row.type == "MANAGER") managers.push_back(csv_row.name);
        }
        row.hosts = hosts_key(managers);
        const auto& stats = all->stats;
        row.iops = stats.iops;
        // Files before 1.1.0 have binary MB/s only: 1 MiB = 1.048576 MB.
        row.mb_per_s = stats.mb_per_s ? stats.mb_per_s
                                      : (stats.mib_per_s ? std::optional(*stats.mib_per_s * 1.048576) : std::nullopt);
        row.average_ms = stats.average_response_ms;
        row.maximum_ms = stats.maximum_response_ms;
        row.cpu_percent = stats.cpu_percent;
        if (stats.errors) row.errors = static_cast<std::int64_t>(*stats.errors);
        auto id = insert_run(connection_->db, row);
        if (!id) return fail(id.error());
        for (const auto& manager : managers) {
          if (auto host = insert_host(connection_->db, *id, manager, {}); !host) return host;
        }
        ++summary.runs;
      }
    }
    return {};
  });
  if (!imported) return fail(imported.error());
  return summary;
}

Result<std::vector<RunRecord>> History::list(const RunFilter& filter) {
  auto query = connection_->db.prepare(
      std::string(kRunColumns) + std::string(kRunsJoined) +
      "WHERE (?1 IS NULL OR r.started_at_ms >= ?1) AND (?2 = '' OR r.spec = ?2) "
      "AND (?3 = '' OR r.id IN (SELECT run_id FROM run_hosts WHERE manager = ?3)) "
      "ORDER BY r.started_at_ms DESC, r.id DESC LIMIT ?4");
  if (!query) return fail(query.error());
  query->bind_or_null(1, filter.since ? std::optional<std::int64_t>(filter.since->unix_ms) : std::nullopt);
  query->bind(2, filter.spec).bind(3, filter.host);
  query->bind(4, filter.limit == 0 ? std::int64_t{-1} : static_cast<std::int64_t>(filter.limit));
  std::vector<RunRecord> records;
  for (;;) {
    auto row = query->step();
    if (!row) return fail(row.error());
    if (!*row) return records;
    records.push_back(read_record(*query));
  }
}

Result<StoredRun> History::show(RunId id) {
  auto& db = connection_->db;
  auto query = db.prepare(std::string(kRunColumns) + ", r.document" + std::string(kRunsJoined) + "WHERE r.id = ?1");
  if (!query) return fail(query.error());
  query->bind(1, id);
  auto row = query->step();
  if (!row) return fail(row.error());
  if (!*row) return fail(ErrorCode::not_found, "no run " + std::to_string(id) + " in the history");
  StoredRun stored;
  stored.record = read_record(*query);
  if (!query->is_null(kRunColumnCount)) {
    auto document = results::read_results_json(query->text(kRunColumnCount), "history run " + std::to_string(id));
    if (!document) return fail(document.error());
    if (!document->runs.empty()) stored.results = std::move(document->runs.front());
  }
  auto series = read_series(db, stored.record.series_id);
  if (!series) return fail(series.error());
  stored.series = std::move(series->info);
  stored.plan = std::move(series->plan);
  stored.steady_state = std::move(series->steady_state);
  stored.max_iops_search = std::move(series->max_iops_search);
  stored.precondition = std::move(series->precondition);
  stored.pts_iops = std::move(series->pts_iops);

  auto hosts = db.prepare(
      "SELECT manager, os_name, kernel_release, iomark_version, cpu_count FROM run_hosts WHERE run_id = ?1 "
      "ORDER BY rowid");
  if (!hosts) return fail(hosts.error());
  hosts->bind(1, id);
  for (;;) {
    auto host = hosts->step();
    if (!host) return fail(host.error());
    if (!*host) break;
    stored.hosts.push_back({hosts->text(0),
                            {static_cast<std::uint32_t>(hosts->integer(4)), hosts->text(1), hosts->text(2),
                             hosts->text(3)}});
  }
  return stored;
}

Result<RunVariation> History::variation_of(const RunRecord& run, std::optional<RunId> excluding) {
  auto query = connection_->db.prepare(
      "SELECT count(iops), sum(iops), sum(iops * iops), count(mb_per_s), sum(mb_per_s), sum(mb_per_s * mb_per_s), "
      "count(average_ms), sum(average_ms), sum(average_ms * average_ms), count(p99_ms), sum(p99_ms), "
      "sum(p99_ms * p99_ms) FROM runs WHERE spec = ?1 AND queue_depth IS ?2 AND hosts = ?3 AND status = 'completed' "
      "AND (?4 IS NULL OR id != ?4)");
  if (!query) return fail(query.error());
  query->bind(1, run.spec).bind_or_null(2, optional_depth(run.queue_depth)).bind(3, run.hosts).bind_or_null(4, excluding);
  auto row = query->step();
  if (!row) return fail(row.error());
  const auto figure = [&](int first) {
    return variation_from(query->integer(first), query->real(first + 1), query->real(first + 2));
  };
  return RunVariation{figure(0), figure(3), figure(6), figure(9)};
}

Result<results::SeriesResults> History::load_results(std::span<const RunId> ids) {
  results::SeriesResults loaded;
  loaded.outcome = results::SeriesOutcome::completed;
  for (const RunId id : ids) {
    auto stored = show(id);
    if (!stored) return fail(stored.error());
    if (!stored->results) {
      return fail(ErrorCode::unsupported, "run " + std::to_string(id) + " has no stored run tree (" +
                                              (stored->record.status == RunStatus::failed
                                                   ? std::string("it failed")
                                                   : "imported from " + stored->record.source) +
                                              ")");
    }
    if (loaded.runs.empty()) {
      loaded.info = std::move(stored->series);
      loaded.plan = std::move(stored->plan);
    }
    loaded.runs.push_back(std::move(*stored->results));
  }
  return loaded;
}

}  // namespace iomark::history
