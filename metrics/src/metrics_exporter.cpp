#include "iomark/metrics/metrics_exporter.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include <boost/asio.hpp>

#include "iomark/transport/host_port.hpp"

namespace iomark::metrics {

namespace asio = boost::asio;
using asio::ip::tcp;

namespace {

constexpr std::size_t kMaxRequestBytes = 8192;
constexpr std::chrono::seconds kRequestDeadline{5};

std::string http_response(std::string_view status, std::string_view content_type, const std::string& body) {
  return "HTTP/1.1 " + std::string(status) + "\r\nContent-Type: " + std::string(content_type) +
         "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

}  // namespace

struct MetricsExporter::Server {
  // Declared before `io`, so they outlive it: destroying the io_context destroys the handlers
  // still queued, and with them the last connections, which count themselves out.
  std::atomic<std::size_t> connections{0};
  mutable std::mutex mutex;
  std::string text;  // guarded by mutex
  asio::io_context io;
  tcp::acceptor acceptor{io};
  std::thread thread;

  std::string current_text() const {
    const std::lock_guard lock(mutex);
    return text;
  }

  // One connection: read the request head, answer, close. The timer closes a client that
  // sends too slowly; `connection` keeps the state alive until its last handler ran.
  struct Connection : std::enable_shared_from_this<Connection> {
    Connection(Server& owner, tcp::socket accepted)
        : server(owner), socket(std::move(accepted)), deadline(owner.io), request(kMaxRequestBytes) {}
    ~Connection() { --server.connections; }

    void begin() {
      deadline.expires_after(kRequestDeadline);
      deadline.async_wait([self = shared_from_this()](const boost::system::error_code& error) {
        if (!error) self->socket.close();
      });
      asio::async_read_until(socket, request, "\r\n\r\n",
                             [self = shared_from_this()](const boost::system::error_code& error, std::size_t) {
                               if (!error) self->answer();
                               else self->deadline.cancel();
                             });
    }

    void answer() {
      std::istream head(&request);
      std::string method, target;
      head >> method >> target;
      if (method != "GET") {
        response = http_response("405 Method Not Allowed", "text/plain", "only GET\n");
      } else if (target != "/metrics") {
        response = http_response("404 Not Found", "text/plain", "metrics are at /metrics\n");
      } else {
        response = http_response("200 OK", kPrometheusContentType, server.current_text());
      }
      asio::async_write(socket, asio::buffer(response), [self = shared_from_this()](auto, std::size_t) {
        self->deadline.cancel();
        boost::system::error_code ignored;
        self->socket.shutdown(tcp::socket::shutdown_both, ignored);
      });
    }

    Server& server;
    tcp::socket socket;
    asio::steady_timer deadline;
    asio::streambuf request;
    std::string response;
  };

  void accept() {
    acceptor.async_accept([this](const boost::system::error_code& error, tcp::socket socket) {
      if (error == asio::error::operation_aborted) return;
      if (!error) {
        if (connections.load() >= kMaxConnections) {
          socket.close();  // over the bound: the client sees the connection refused by a close
        } else {
          ++connections;
          std::make_shared<Connection>(*this, std::move(socket))->begin();
        }
      }
      accept();
    });
  }
};

Result<std::unique_ptr<MetricsExporter>> MetricsExporter::start(std::string_view listen_address) {
  auto address = transport::parse_listen_address(listen_address, "127.0.0.1");
  if (!address) return fail(address.error());
  auto server = std::make_unique<Server>();
  boost::system::error_code error;
  const auto ip = asio::ip::make_address(address->host, error);
  if (error) {
    return fail(Error(ErrorCode::invalid_argument, "not an IP address: " + address->host).in_field("--metrics-listen"));
  }
  const tcp::endpoint endpoint(ip, address->port);
  server->acceptor.open(endpoint.protocol(), error);
  if (!error) server->acceptor.set_option(tcp::acceptor::reuse_address(true), error);
  if (!error) server->acceptor.bind(endpoint, error);
  if (!error) server->acceptor.listen(asio::socket_base::max_listen_connections, error);
  if (error) {
    return fail(ErrorCode::io_error, "cannot serve metrics on " + transport::to_string(*address) + ": " +
                                         error.message());
  }
  server->text = render_prometheus_text({}, nullptr, nullptr);
  server->accept();
  auto* running = server.get();
  server->thread = std::thread([running] { running->io.run(); });
  return std::unique_ptr<MetricsExporter>(new MetricsExporter(std::move(server)));
}

MetricsExporter::MetricsExporter(std::unique_ptr<Server> server) : server_(std::move(server)) {}

MetricsExporter::~MetricsExporter() {
  server_->io.stop();
  server_->thread.join();
}

std::string MetricsExporter::address() const {
  boost::system::error_code error;
  const auto endpoint = server_->acceptor.local_endpoint(error);
  return transport::to_string({endpoint.address().to_string(), endpoint.port()});
}

std::string MetricsExporter::text() const { return server_->current_text(); }

void MetricsExporter::publish(const results::RunResults* run, const results::RunSummary* summary) {
  auto text = render_prometheus_text(progress_, run, summary);
  const std::lock_guard lock(server_->mutex);
  server_->text = std::move(text);
}

void MetricsExporter::run_started(std::size_t index, std::size_t count, const controller::RunPlan&) {
  progress_.run_index = index + 1;
  progress_.run_count = count;
  progress_.phase = SeriesPhase::preparing;
  publish(nullptr, nullptr);
}

void MetricsExporter::live(const controller::LiveFigures& figures) {
  progress_.run_index = figures.run_index + 1;
  progress_.run_count = figures.run_count;
  switch (figures.phase) {
    case controller::LivePhase::preparing: progress_.phase = SeriesPhase::preparing; break;
    case controller::LivePhase::ramp_up: progress_.phase = SeriesPhase::ramp_up; break;
    case controller::LivePhase::recording: progress_.phase = SeriesPhase::recording; break;
  }
  if (figures.snapshot.managers.empty()) {
    publish(nullptr, nullptr);
    return;
  }
  const auto summary = results::summarize_run(figures.snapshot);
  publish(&figures.snapshot, &summary);
}

void MetricsExporter::run_finished(std::size_t, const results::RunResults& run, const results::RunSummary& summary) {
  ++progress_.runs_completed;
  progress_.phase = SeriesPhase::idle;
  publish(&run, &summary);
}

void MetricsExporter::run_failed(std::size_t, const controller::RunPlan&, const Error&) {
  ++progress_.runs_failed;
  progress_.phase = SeriesPhase::idle;
  publish(nullptr, nullptr);
}

}  // namespace iomark::metrics
