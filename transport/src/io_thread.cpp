#include "io_thread.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <system_error>

namespace iomark::transport::detail {

Result<std::shared_ptr<IoThread>> IoThread::start() {
  std::shared_ptr<IoThread> io(new IoThread());
  try {
    io->thread_ = std::thread([raw = io.get()] { raw->run(); });
  } catch (const std::system_error& error) {
    return fail(ErrorCode::io_error, std::string("cannot start the network thread: ") + error.what());
  }
  return io;
}

IoThread::~IoThread() {
  work_.reset();
  context_.stop();
  if (thread_.joinable()) thread_.join();
}

void IoThread::run() noexcept {
  // Handlers return errors as values; an exception here is a bug (or memory exhaustion),
  // and a half-run handler leaves a connection in a state nothing can repair.
  try {
    context_.run();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "iomark: fatal error in the network thread: %s\n", error.what());
    std::abort();
  }
}

}  // namespace iomark::transport::detail
