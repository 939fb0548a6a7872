// iomark-gui: the Qt front end of the iomark controller. main() only reads the command line
// and wires the key and the listening address into the main window.
#include <QApplication>
#include <QCommandLineParser>
#include <QStringList>
#include <filesystem>
#include <optional>

#include "iomark/controller/heap_arenas.hpp"
#include "iomark/gui/main_window.hpp"
#include "iomark/transport/key_file.hpp"

int main(int argc, char** argv) {
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
  parser.process(application);

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
