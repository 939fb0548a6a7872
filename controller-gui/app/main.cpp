// iomark-gui: the Qt front end of the iomark controller. main() only reads the command line
// and wires the key, TLS, the listening address and the run settings into the main window.
#include <CLI/CLI.hpp>
#include <QApplication>
#include <QStringList>
#include <algorithm>
#include <cstring>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <spdlog/spdlog.h>

#include "iomark/app_runtime/credentials.hpp"
#include "iomark/app_runtime/exit_status.hpp"
#include "iomark/app_runtime/heap_arenas.hpp"
#include "iomark/app_runtime/logging.hpp"
#include "iomark/app_runtime/stop_signals.hpp"
#include "iomark/common/exit_code.hpp"
#include "iomark/gui/command_line.hpp"
#include "iomark/gui/main_window.hpp"

namespace {

iomark::gui::MainWindowOptions window_options(const iomark::gui::GuiFlags& flags,
                                              iomark::app_runtime::Credentials credentials) {
  iomark::gui::MainWindowOptions options;
  options.insecure = flags.connection.insecure;
  options.key = std::move(credentials.key);
  options.tls = std::move(credentials.tls);
  options.listen = flags.no_listen ? QString() : QString::fromStdString(flags.listen);
  if (flags.legacy_dynamo) options.legacy_dynamo = QString::fromStdString(*flags.legacy_dynamo);
  return options;
}

// Qt's generic options (-platform NAME, -style NAME, -reverse, ...) are Qt's to read: they
// start with one dash and a word, which no flag of ours does. Returns the command line without
// them and without argv[0], for CLI11; QApplication still gets the whole of argv.
std::vector<std::string> without_qt_options(int argc, char** argv) {
  static const std::set<std::string_view> kQtOptionsWithValue{
      "-platform", "-platformpluginpath", "-platformtheme", "-plugin", "-qmljsdebugger", "-qwindowgeometry",
      "-qwindowicon", "-qwindowtitle", "-style", "-stylesheet", "-session", "-display", "-geometry", "-title",
      "-name", "-visual", "-ncols", "-cmap", "-fontengine"};
  std::vector<std::string> ours;
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    const bool qt_option = argument.size() > 2 && argument[0] == '-' && argument[1] != '-';
    if (!qt_option) {
      ours.emplace_back(argument);
    } else if (kQtOptionsWithValue.contains(argument)) {
      ++i;  // its value is Qt's too
    }
  }
  return ours;
}

}  // namespace

int main(int argc, char** argv) {
  iomark::app_runtime::StopSignals stop_signals;  // first: before any thread exists
  iomark::app_runtime::limit_heap_arenas();
  // Parsed before QApplication exists, so --help and --version work without a display.
  CLI::App app{"iomark-gui: the iomark controller, IOmeter's workflow, iomark's engine.", "iomark-gui"};
  app.set_version_flag("--version", "iomark-gui " IOMARK_VERSION);
  iomark::gui::GuiFlags flags;
  iomark::gui::add_gui_flags(app, flags);
  iomark::app_runtime::LogOptions log_options;
  iomark::app_runtime::add_log_options(app, log_options, "iomark-gui",
                                       [] { return iomark::app_runtime::ConsoleStyle::timestamped; });
  auto ours = without_qt_options(argc, argv);
  std::reverse(ours.begin(), ours.end());  // CLI11 takes the arguments last first
  try {
    app.parse(ours);
  } catch (const CLI::Success& success) {
    return app.exit(success);
  } catch (const CLI::ParseError& error) {
    app.exit(error);
    return iomark::to_int(iomark::ExitCode::usage);
  }

  const auto settings = iomark::gui::run_settings(flags.run);
  if (!settings) return iomark::app_runtime::bad_input(settings.error());
  // The embedded agent needs no key, so none named is none; a key or TLS file named and not
  // usable is refused, as iomark run does, never turned into no key or plain TCP.
  auto credentials = iomark::app_runtime::load_credentials(flags.connection, iomark::app_runtime::KeyNeed::when_named);
  if (!credentials) return iomark::app_runtime::bad_input(credentials.error());

  QApplication application(argc, argv);
  QApplication::setApplicationName(QStringLiteral("iomark-gui"));
  QApplication::setApplicationVersion(QStringLiteral(IOMARK_VERSION));
  // SIGINT or SIGTERM closes the window as the menu would; quit() is queued, so it runs on
  // the UI thread.
  (void)stop_signals.request_stop_on([](int signal_number) {
    spdlog::info("SIG{}: quitting", sigabbrev_np(signal_number));
    QMetaObject::invokeMethod(QCoreApplication::instance(), &QCoreApplication::quit, Qt::QueuedConnection);
  });
  iomark::gui::MainWindow window(window_options(flags, std::move(*credentials)));
  if (!flags.plan.empty()) window.open_plan(QString::fromStdString(flags.plan));
  window.apply(*settings);  // over the plan's, as `iomark run PLAN --time` does
  window.show();
  return QApplication::exec();
}
