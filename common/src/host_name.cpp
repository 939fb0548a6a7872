#include "iomark/common/host_name.hpp"

#include <unistd.h>

namespace iomark {

std::string local_host_name() {
  char name[256] = {};
  return ::gethostname(name, sizeof name - 1) == 0 && name[0] != '\0' ? std::string(name) : std::string("localhost");
}

}  // namespace iomark
