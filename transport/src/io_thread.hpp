// One thread running one io_context until the last owner lets go.
#pragma once

#include <memory>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "iomark/common/result.hpp"

namespace iomark::transport::detail {

// Owned through shared_ptr by the public objects only (Listener, TcpConnection), never by
// handlers: the destructor joins the thread, so it must not run on that thread, and public
// objects are destroyed by their users, on their threads.
class IoThread {
 public:
  // Errors: io_error when the thread cannot be started.
  [[nodiscard]] static Result<std::shared_ptr<IoThread>> start();

  IoThread(const IoThread&) = delete;
  IoThread& operator=(const IoThread&) = delete;
  // Stops the context and joins. Handlers not yet run are destroyed with the context,
  // releasing what they hold.
  ~IoThread();

  [[nodiscard]] boost::asio::io_context& context() noexcept { return context_; }

 private:
  IoThread() = default;
  void run() noexcept;

  boost::asio::io_context context_{1};
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_{context_.get_executor()};
  std::thread thread_;
};

}  // namespace iomark::transport::detail
