#include "iomark/app_runtime/logging.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <fmt/format.h>
#include <memory>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <string_view>

#include "iomark/common/exit_code.hpp"

namespace iomark::app_runtime {

namespace {

constexpr std::array<std::string_view, 5> kLevelNames{"trace", "debug", "info", "warn", "error"};

// sd-daemon(3) priorities: the journal reads "<N>" at the start of a line as its level.
int journal_priority(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::trace:
    case spdlog::level::debug:
      return 7;  // LOG_DEBUG
    case spdlog::level::info:
      return 6;  // LOG_INFO
    case spdlog::level::warn:
      return 4;  // LOG_WARNING
    case spdlog::level::err:
      return 3;  // LOG_ERR
    default:
      return 2;  // LOG_CRIT
  }
}

// %J: the journal priority prefix.
class JournalPriorityFlag final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& message, const std::tm&, spdlog::memory_buf_t& out) override {
    fmt::format_to(std::back_inserter(out), "<{}>", journal_priority(message.level));
  }
  [[nodiscard]] std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<JournalPriorityFlag>();
  }
};

// %Q: nothing for info, so a command's ordinary output reads as before; "iomark: " before an
// error (scripts match "iomark: FILE:LINE: ..."), "iomark: warning: " and the like otherwise.
class PlainLevelFlag final : public spdlog::custom_flag_formatter {
 public:
  explicit PlainLevelFlag(std::string program) : program_(std::move(program)) {}
  void format(const spdlog::details::log_msg& message, const std::tm&, spdlog::memory_buf_t& out) override {
    if (message.level == spdlog::level::info) return;
    const std::string_view level = message.level == spdlog::level::warn ? "warning: "
                                   : message.level >= spdlog::level::err ? ""
                                                                          : "debug: ";
    fmt::format_to(std::back_inserter(out), "{}: {}", program_, level);
  }
  [[nodiscard]] std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<PlainLevelFlag>(program_);
  }

 private:
  std::string program_;
};

std::unique_ptr<spdlog::formatter> console_formatter(ConsoleStyle style, const std::string& program) {
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  if (stderr_is_journal()) {
    formatter->add_flag<JournalPriorityFlag>('J').set_pattern("%J%v");
  } else if (style == ConsoleStyle::plain) {
    formatter->add_flag<PlainLevelFlag>('Q', program).set_pattern("%Q%v");
  } else {
    formatter->set_pattern("%Y-%m-%d %H:%M:%S.%e %-5l %v");
  }
  return formatter;
}

Result<spdlog::level::level_enum> chosen_level(const LogOptions& options) {
  if (!options.level.empty()) {
    if (std::find(kLevelNames.begin(), kLevelNames.end(), options.level) == kLevelNames.end()) {
      return fail(Error(ErrorCode::invalid_argument, "not a log level: \"" + options.level +
                                                         "\" (trace, debug, info, warn or error)")
                      .in_field("--log-level"));
    }
    return spdlog::level::from_str(options.level);
  }
  const int shifted = static_cast<int>(spdlog::level::info) + options.quieter - options.louder;
  return static_cast<spdlog::level::level_enum>(
      std::clamp(shifted, static_cast<int>(spdlog::level::trace), static_cast<int>(spdlog::level::err)));
}

}  // namespace

void add_log_options(CLI::App& app, LogOptions& options, std::string program, std::function<ConsoleStyle()> style_of) {
  app.add_option("--log-level", options.level, "Log this level and above: trace, debug, info (default), warn, error")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error"}))
      ->group("Logging");
  app.add_option("--log-file", options.file, "Also log to FILE, each line with a timestamp and its level")
      ->group("Logging");
  app.add_flag("-q,--quiet", options.quieter, "Log less: warnings and errors (twice: errors only)")->group("Logging");
  app.add_flag("-v,--verbose", options.louder, "Log more: debug (twice: trace)")->group("Logging");
  // The subcommands inherit this: `iomark run -v` reaches the flag registered here.
  app.fallthrough();
  app.parse_complete_callback([&options, program = std::move(program), style_of = std::move(style_of)] {
    if (auto started = start_logging(options, style_of(), program); !started) {
      fmt::print(stderr, "{}: {}\n", program, started.error().describe());
      throw CLI::RuntimeError(to_int(ExitCode::bad_input));
    }
  });
}

Result<void> start_logging(const LogOptions& options, ConsoleStyle style, const std::string& program) {
  auto level = chosen_level(options);
  if (!level) return fail(level.error());
  auto console = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  console->set_formatter(console_formatter(style, program));
  std::vector<spdlog::sink_ptr> sinks{console};
  if (!options.file.empty()) {
    try {
      auto file = std::make_shared<spdlog::sinks::basic_file_sink_mt>(options.file);
      file->set_pattern("%Y-%m-%d %H:%M:%S.%e [%l] %v");
      sinks.push_back(std::move(file));
    } catch (const spdlog::spdlog_ex& error) {
      return fail(Error(ErrorCode::io_error, error.what()).in_field("--log-file"));
    }
  }
  auto logger = std::make_shared<spdlog::logger>("iomark", sinks.begin(), sinks.end());
  logger->set_level(*level);
  // Every line reaches stderr and the file when written: a daemon's log is read as it goes
  // and a crash must not take the last lines with it.
  logger->flush_on(spdlog::level::trace);
  spdlog::set_default_logger(std::move(logger));
  return {};
}

bool stderr_is_journal() {
  const char* stream = std::getenv("JOURNAL_STREAM");
  if (stream == nullptr) return false;
  struct stat status {};
  if (::fstat(STDERR_FILENO, &status) != 0) return false;
  return fmt::format("{}:{}", status.st_dev, status.st_ino) == stream;
}

}  // namespace iomark::app_runtime
