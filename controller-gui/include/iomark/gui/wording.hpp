// Numbers in words for people: counts with their noun and durations.
#pragma once

#include <QString>
#include <cstddef>

namespace iomark::gui {

// "1 run", "4 runs": a count with its noun (English plural by "s").
[[nodiscard]] QString count_text(std::size_t count, const char* noun);

// "42 s", "3 min 5 s", "2 h 10 min": how long something takes, rounded to the second.
[[nodiscard]] QString duration_text(double seconds);

}  // namespace iomark::gui
