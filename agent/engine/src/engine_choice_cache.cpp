#include "iomark/engine/engine_choice_cache.hpp"

#include <sys/stat.h>
#include <sys/utsname.h>

#include <cerrno>
#include <cstring>

namespace iomark::engine {

Result<EngineChoiceKey> engine_choice_key(const TrialTarget& target, const TrialOptions& options) {
  struct stat status {};
  if (::fstat(target.fd, &status) != 0) {
    return fail(ErrorCode::io_error, std::string("cannot stat the target: ") + std::strerror(errno));
  }
  utsname names{};
  std::string release = ::uname(&names) == 0 ? names.release : "";
  return EngineChoiceKey{status.st_dev, status.st_ino, S_ISBLK(status.st_mode) ? status.st_rdev : 0,
                         std::move(release), options.queue_depth, options.block_bytes};
}

EngineDecision EngineChoiceCache::choose(const TrialTarget& target, const TrialOptions& options,
                                         std::span<const EngineProbe> probes, std::string_view target_path) {
  const auto key = engine_choice_key(target, options);
  std::lock_guard lock(mutex_);
  if (key) {
    if (const auto known = choices_.find(*key); known != choices_.end()) {
      EngineDecision remembered = known->second.decision;
      remembered.reason += " (measured at an earlier run)";
      return remembered;
    }
  }
  const auto trials = measure_engines(target, options, probes);
  EngineDecision decision = choose_measured_engine(trials, options.queue_depth, probes);
  if (key) choices_.emplace(*key, MeasuredChoice{*key, std::string(target_path), decision});
  return decision;
}

std::vector<MeasuredChoice> EngineChoiceCache::measured() const {
  std::lock_guard lock(mutex_);
  std::vector<MeasuredChoice> all;
  all.reserve(choices_.size());
  for (const auto& [key, choice] : choices_) all.push_back(choice);
  return all;
}

}  // namespace iomark::engine
