#include "iomark/engine/calibration.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <string>

namespace iomark::engine {
namespace {

// The first line of /proc/self/task/<tid>/comm, or "" when the thread has gone.
std::string thread_name(const char* tid) {
  const std::string path = std::string("/proc/self/task/") + tid + "/comm";
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  std::array<char, 64> text{};
  const ssize_t length = ::read(fd, text.data(), text.size() - 1);
  ::close(fd);
  if (length <= 0) return {};
  std::string name(text.data(), static_cast<std::size_t>(length));
  if (!name.empty() && name.back() == '\n') name.pop_back();
  return name;
}

}  // namespace

Result<std::uint32_t> count_io_uring_workers(std::int32_t owner_thread_id) {
  const std::string wanted = "iou-wrk-" + std::to_string(owner_thread_id);
  DIR* tasks = ::opendir("/proc/self/task");
  if (tasks == nullptr) {
    return fail(ErrorCode::unsupported,
                std::string("cannot list /proc/self/task: ") + std::strerror(errno));
  }
  std::uint32_t count = 0;
  while (const dirent* entry = ::readdir(tasks)) {
    if (entry->d_name[0] == '.') continue;
    if (thread_name(entry->d_name) == wanted) ++count;
  }
  ::closedir(tasks);
  return count;
}

}  // namespace iomark::engine
