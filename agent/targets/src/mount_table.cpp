#include "iomark/targets/mount_table.hpp"

#include <libmount/libmount.h>

#include <cstdio>
#include <memory>

namespace iomark::targets {
namespace {

struct TableDeleter {
  void operator()(libmnt_table* table) const noexcept { mnt_unref_table(table); }
};
struct IteratorDeleter {
  void operator()(libmnt_iter* iterator) const noexcept { mnt_free_iter(iterator); }
};
struct FileCloser {
  void operator()(std::FILE* file) const noexcept { std::fclose(file); }
};
using Table = std::unique_ptr<libmnt_table, TableDeleter>;

// A line libmount cannot parse is skipped rather than failing the whole table: one odd
// entry must not hide every other mount from the safety check.
int skip_unparsable_line(libmnt_table*, const char*, int) { return 1; }

Table new_table() {
  Table table(mnt_new_table());
  if (table) mnt_table_set_parser_errcb(table.get(), skip_unparsable_line);
  return table;
}

bool has_option(const char* options, const char* name) {
  return options != nullptr && mnt_optstr_get_option(options, name, nullptr, nullptr) == 0;
}

std::string text_or_empty(const char* text) { return text == nullptr ? std::string() : std::string(text); }

std::vector<MountEntry> entries_of(libmnt_table* table) {
  std::vector<MountEntry> entries;
  std::unique_ptr<libmnt_iter, IteratorDeleter> iterator(mnt_new_iter(MNT_ITER_FORWARD));
  if (!iterator) return entries;
  libmnt_fs* fs = nullptr;
  while (mnt_table_next_fs(table, iterator.get(), &fs) == 0) {
    MountEntry entry;
    entry.mount_point = text_or_empty(mnt_fs_get_target(fs));
    entry.source = text_or_empty(mnt_fs_get_source(fs));
    entry.type = text_or_empty(mnt_fs_get_fstype(fs));
    entry.read_only = has_option(mnt_fs_get_vfs_options(fs), "ro") || has_option(mnt_fs_get_fs_options(fs), "ro");
    entry.device = mnt_fs_get_devno(fs);
    entries.push_back(std::move(entry));
  }
  return entries;
}

Error read_failure(const std::string& path, int code) {
  return Error(ErrorCode::io_error, "libmount could not read it (error " + std::to_string(-code) + ")").at({path, 0});
}

}  // namespace

Result<std::vector<MountEntry>> read_mount_table() {
  static constexpr const char* kMountinfo = "/proc/self/mountinfo";
  auto table = new_table();
  if (!table) return fail(ErrorCode::io_error, "libmount: out of memory");
  if (const int code = mnt_table_parse_file(table.get(), kMountinfo); code != 0) {
    return fail(read_failure(kMountinfo, code));
  }
  return entries_of(table.get());
}

std::vector<MountEntry> parse_mount_table(std::string_view mountinfo) {
  auto table = new_table();
  if (!table || mountinfo.empty()) return {};
  // libmount reads streams; fmemopen gives it the text without a temporary file.
  std::unique_ptr<std::FILE, FileCloser> stream(
      ::fmemopen(const_cast<char*>(mountinfo.data()), mountinfo.size(), "r"));
  if (!stream) return {};
  // The name tells libmount the format: "mountinfo" in it selects the mountinfo parser.
  if (mnt_table_parse_stream(table.get(), stream.get(), "/proc/self/mountinfo") != 0) return {};
  return entries_of(table.get());
}

Result<std::vector<std::string>> read_swap_sources(const std::string& swaps_path) {
  auto table = new_table();
  if (!table) return fail(ErrorCode::io_error, "libmount: out of memory");
  if (const int code = mnt_table_parse_swaps(table.get(), swaps_path.c_str()); code != 0) {
    return fail(read_failure(swaps_path, code));
  }
  std::vector<std::string> sources;
  for (const auto& entry : entries_of(table.get())) sources.push_back(entry.source);
  return sources;
}

}  // namespace iomark::targets
