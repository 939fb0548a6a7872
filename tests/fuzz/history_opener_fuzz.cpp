// The run history's opener (history/history.hpp) on an arbitrary file: the input is written
// to a scratch file and opened read-only, as `history list/show/compare` and `report --runs`
// open it. It opens and answers list/show/variation, or is refused with an error naming the
// file; either way the file keeps every byte. Then a writer opens it: refused, or it becomes
// a history that a reader opens. Never a crash or a hang (a user_version below 0 once indexed
// the migration table below zero and ran arbitrary text as SQL).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "fuzz_support.hpp"
#include "iomark/history/history.hpp"

namespace {

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::string& path, const std::uint8_t* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
}

void remove_all(const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) std::filesystem::remove(path + suffix);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace iomark;
  static const std::string path =
      (std::filesystem::temp_directory_path() / ("iomark-fuzz-history-" + std::to_string(::getpid()) + ".sqlite"))
          .string();
  remove_all(path);
  write_file(path, data, size);
  const std::string before = contents(path);
  const history::OpenOptions reading{.access = history::Access::read_only, .lock_wait = std::chrono::milliseconds(0)};
  {
    auto opened = history::History::open(path, reading);
    if (opened) {
      if (auto runs = opened->list({}); runs) {
        for (std::size_t i = 0; i < runs->size() && i < 4; ++i) {
          (void)opened->show((*runs)[i].id);
          (void)opened->variation_of((*runs)[i]);
        }
      }
    } else {
      fuzz::require(opened.error().message().find(path) != std::string::npos,
                    "a refusal names the file: " + opened.error().describe());
    }
  }
  fuzz::require(contents(path) == before, "a reader leaves the file byte-identical");
  {
    auto written = history::History::open(path, {.access = history::Access::read_write,
                                                 .lock_wait = std::chrono::milliseconds(0)});
    if (written) {
      auto read_back = history::History::open(path, reading);
      fuzz::require(read_back.has_value(), "a file a writer opened is a history a reader opens: " +
                                               (read_back ? std::string() : read_back.error().describe()));
    }
  }
  remove_all(path);
  return 0;
}
