#include "iomark/gui/wording.hpp"

namespace iomark::gui {

QString count_text(std::size_t count, const char* noun) {
  return QStringLiteral("%1 %2%3").arg(count).arg(QLatin1String(noun)).arg(count == 1 ? "" : "s");
}

QString duration_text(double seconds) {
  const auto total = static_cast<long long>(seconds + 0.5);
  const auto hours = total / 3600;
  const auto minutes = total % 3600 / 60;
  const auto rest = total % 60;
  if (hours > 0) return QStringLiteral("%1 h %2 min").arg(hours).arg(minutes);
  if (minutes > 0) return QStringLiteral("%1 min %2 s").arg(minutes).arg(rest);
  return QStringLiteral("%1 s").arg(rest);
}

}  // namespace iomark::gui
