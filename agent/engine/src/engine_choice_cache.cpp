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
                                         std::span<const EngineProbe> probes) {
  const auto key = engine_choice_key(target, options);
  std::lock_guard lock(mutex_);
  if (key) {
    if (const auto known = decisions_.find(*key); known != decisions_.end()) {
      EngineDecision remembered = known->second;
      remembered.reason += " (measured at an earlier run)";
      return remembered;
    }
  }
  const auto trials = measure_engines(target, options, probes);
  EngineDecision decision = choose_measured_engine(trials, options.queue_depth, probes);
  if (key) decisions_.emplace(*key, decision);
  return decision;
}

std::map<EngineChoiceKey, EngineDecision> EngineChoiceCache::decisions() const {
  std::lock_guard lock(mutex_);
  return decisions_;
}

}  // namespace iomark::engine
