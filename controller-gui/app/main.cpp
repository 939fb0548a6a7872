// iomark-gui: the Qt front end of the iomark controller. main() only reads the command line
// and wires the key and the listening address into the main window.
#include <QApplication>
#include <QCommandLineParser>
#include <QStringList>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <spdlog/spdlog.h>

#include "iomark/app_runtime/logging.hpp"
#include "iomark/app_runtime/stop_signals.hpp"
#include "iomark/common/exit_code.hpp"
#include "iomark/controller/heap_arenas.hpp"
#include "iomark/gui/main_window.hpp"
#include "iomark/transport/key_file.hpp"

namespace {

// The logging flags of the other programs, in Qt's parser (-v is Qt's --version here).
struct LogFlags {
  QCommandLineOption level{QStringLiteral("log-level"),
                           QStringLiteral("Log this level and above: trace, debug, info (default), warn, error"),
                           QStringLiteral("level")};
  QCommandLineOption file{QStringLiteral("log-file"), QStringLiteral("Also log to FILE, each line with a timestamp"),
                          QStringLiteral("file")};
  QCommandLineOption quiet{{QStringLiteral("q"), QStringLiteral("quiet")}, QStringLiteral("Log warnings and errors only")};
  QCommandLineOption verbose{QStringLiteral("verbose"), QStringLiteral("Log debug messages too")};

  [[nodiscard]] iomark::app_runtime::LogOptions read(const QCommandLineParser& parser) const {
    return {parser.value(level).toStdString(), parser.value(file).toStdString(), parser.isSet(quiet) ? 1 : 0,
            parser.isSet(verbose) ? 1 : 0};
  }
};

}  // namespace

int main(int argc, char** argv) {
  iomark::app_runtime::StopSignals stop_signals;  // first: before any thread exists
  iomark::controller::limit_heap_arenas();
  QApplication application(argc, argv);
  QApplication::setApplicationName(QStringLiteral("iomark-gui"));
  QApplication::setApplicationVersion(QStringLiteral(IOMARK_VERSION));

  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("The iomark controller: IOmeter's workflow, iomark's engine."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("PLAN"), QStringLiteral("An IOmeter .icf plan to open"));
  const QCommandLineOption listen(QStringLiteral("listen"),
                                  QStringLiteral("Accept agents logging in on [ADDR:]PORT (default 1066)"),
                                  QStringLiteral("address"), QStringLiteral("1066"));
  const QCommandLineOption no_listen(QStringLiteral("no-listen"), QStringLiteral("Do not listen for agents at start"));
  const QCommandLineOption key_file(QStringLiteral("key-file"),
                                    QStringLiteral("Pre-shared key file (otherwise IOMARK_KEY)"), QStringLiteral("file"));
  const QCommandLineOption insecure(QStringLiteral("insecure"),
                                    QStringLiteral("No authentication (the agents must say so too)"));
  parser.addOptions({listen, no_listen, key_file, insecure});
  const LogFlags log_flags;
  parser.addOptions({log_flags.level, log_flags.file, log_flags.quiet, log_flags.verbose});
  // parse() rather than process(): a usage error exits 2 as in the other programs, not 1.
  if (!parser.parse(QCoreApplication::arguments())) {
    std::fprintf(stderr, "iomark-gui: %s\n", qPrintable(parser.errorText()));
    return iomark::to_int(iomark::ExitCode::usage);
  }
  if (parser.isSet(QStringLiteral("help"))) parser.showHelp(iomark::to_int(iomark::ExitCode::ok));
  if (parser.isSet(QStringLiteral("version"))) parser.showVersion();
  if (auto started = iomark::app_runtime::start_logging(log_flags.read(parser),
                                                        iomark::app_runtime::ConsoleStyle::timestamped, "iomark-gui");
      !started) {
    std::fprintf(stderr, "iomark-gui: %s\n", started.error().describe().c_str());
    // An unknown --log-level is a usage error, as CLI11 makes it in the other programs.
    return iomark::to_int(started.error().code() == iomark::ErrorCode::invalid_argument ? iomark::ExitCode::usage
                                                                                         : iomark::ExitCode::bad_input);
  }
  // SIGINT or SIGTERM closes the window as the menu would; quit() is queued, so it runs on
  // the UI thread.
  (void)stop_signals.request_stop_on([](int signal_number) {
    spdlog::info("SIG{}: quitting", sigabbrev_np(signal_number));
    QMetaObject::invokeMethod(QCoreApplication::instance(), &QCoreApplication::quit, Qt::QueuedConnection);
  });

  iomark::gui::MainWindowOptions options;
  options.insecure = parser.isSet(insecure);
  options.listen = parser.isSet(no_listen) ? QString() : parser.value(listen);
  if (!options.insecure) {
    const auto path = parser.value(key_file);
    auto key = iomark::transport::load_key(path.isEmpty() ? std::nullopt
                                                          : std::optional<std::filesystem::path>(path.toStdString()));
    if (key) {
      options.key = std::move(*key);
    } else if (parser.isSet(key_file) || key.error().code() != iomark::ErrorCode::not_found) {
      options.notices << QString::fromStdString(key.error().describe());
    }
  }
  iomark::gui::MainWindow window(std::move(options));
  const auto plans = parser.positionalArguments();
  if (!plans.isEmpty()) window.open_plan(plans.front());
  window.show();
  return QApplication::exec();
}
