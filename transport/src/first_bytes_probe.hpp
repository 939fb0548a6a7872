// Waits, on the listener's I/O thread, until an accepted connection's first bytes say which
// protocol it speaks (first_bytes.hpp), peeking so that they stay in the socket for whoever
// reads next: the iomark session or the Dynamo login handler. Bounded like a handshake: a
// peer that says nothing (or too little) within the deadline is dropped with a named error.
//
// Threads: everything runs on the I/O thread. Lifetime: handlers hold shared_ptrs to it.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "iomark/common/result.hpp"
#include "iomark/common/units.hpp"
#include "iomark/transport/first_bytes.hpp"

namespace iomark::transport::detail {

class FirstBytesProbe : public std::enable_shared_from_this<FirstBytesProbe> {
 public:
  using Tcp = boost::asio::ip::tcp;

  struct Verdict {
    FirstBytes kind{};  // never need_more
    Tcp::socket socket;  // nothing of it read yet
    std::string peer;    // "127.0.0.1:5123"
  };
  // Called once: the verdict, or io_error naming the peer (silent, closed, dropped).
  using DoneHandler = std::function<void(Result<Verdict>)>;

  FirstBytesProbe(boost::asio::io_context& context, Tcp::socket socket, std::string peer);

  void start(Nanoseconds deadline, DoneHandler done);
  // Ends the wait: `done` gets io_error "<peer>: <why>". No-op once done.
  void drop(const std::string& why);

 private:
  void wait_readable();
  void on_readable(const boost::system::error_code& error);
  void finish(Result<Verdict> outcome);

  Tcp::socket socket_;
  std::string peer_;
  boost::asio::steady_timer deadline_;
  boost::asio::steady_timer pause_;
  DoneHandler done_;
  std::array<std::byte, kFirstBytesDecisive> prefix_{};
  std::size_t seen_{0};
  Nanoseconds allowed_{};
  bool finished_{false};
};

}  // namespace iomark::transport::detail
