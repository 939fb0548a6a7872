// iomark-gui: the Qt front end of the iomark controller. main() only reads the command line
// and wires the key, TLS, the listening address and the run settings into the main window.
#include <CLI/CLI.hpp>
#include <QApplication>
#include <QStringList>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <spdlog/spdlog.h>

#include "iomark/app_runtime/logging.hpp"
#include "iomark/app_runtime/stop_signals.hpp"
#include "iomark/common/exit_code.hpp"
#include "iomark/app_runtime/heap_arenas.hpp"
#include "iomark/gui/command_line.hpp"
#include "iomark/gui/main_window.hpp"
#include "iomark/transport/key_file.hpp"
#include "iomark/transport/tls.hpp"

namespace {

// The key the flags name; a problem with it becomes a notice the window shows (the embedded
// agent needs no key).
iomark::gui::MainWindowOptions window_options(const iomark::gui::GuiFlags& flags) {
  iomark::gui::MainWindowOptions options;
  const auto& connection = flags.connection;
  options.insecure = connection.insecure;
  options.listen = flags.no_listen ? QString() : QString::fromStdString(flags.listen);
  if (flags.legacy_dynamo) options.legacy_dynamo = QString::fromStdString(*flags.legacy_dynamo);
  if (!options.insecure) {
    auto key = iomark::transport::load_key(connection.key_file.empty()
                                               ? std::nullopt
                                               : std::optional<std::filesystem::path>(connection.key_file));
    if (key) {
      options.key = std::move(*key);
    } else if (!connection.key_file.empty() || key.error().code() != iomark::ErrorCode::not_found) {
      options.notices << QString::fromStdString(key.error().describe());
    }
  }
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
  if (!settings) {
    spdlog::error("{}", settings.error().describe());
    return iomark::to_int(iomark::ExitCode::bad_input);
  }
  // TLS asked for and not usable must not become plain TCP: refuse, as iomark run does.
  auto tls = iomark::transport::load_tls(flags.connection.tls_cert, flags.connection.tls_key, flags.connection.tls_ca);
  if (!tls) {
    spdlog::error("{}", tls.error().describe());
    return iomark::to_int(iomark::ExitCode::bad_input);
  }

  QApplication application(argc, argv);
  QApplication::setApplicationName(QStringLiteral("iomark-gui"));
  QApplication::setApplicationVersion(QStringLiteral(IOMARK_VERSION));
  // SIGINT or SIGTERM closes the window as the menu would; quit() is queued, so it runs on
  // the UI thread.
  (void)stop_signals.request_stop_on([](int signal_number) {
    spdlog::info("SIG{}: quitting", sigabbrev_np(signal_number));
    QMetaObject::invokeMethod(QCoreApplication::instance(), &QCoreApplication::quit, Qt::QueuedConnection);
  });
  auto options = window_options(flags);
  options.tls = std::move(*tls);
  iomark::gui::MainWindow window(std::move(options));
  if (!flags.plan.empty()) window.open_plan(QString::fromStdString(flags.plan));
  window.apply(*settings);  // over the plan's, as `iomark run PLAN --time` does
  window.show();
  return QApplication::exec();
}
