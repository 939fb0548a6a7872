// The in-process link between the controller and its embedded agent. It carries the same
// frames as TCP (encode_frame() on send, FrameDecoder on receive), so the local path cannot
// drift from the distributed one; only the socket is missing.
//
// Compared with TCP: no handshake on the wire (agree() is checked when the pair is made),
// no authentication (AuthMode::none: the peer is this process), no heartbeats and no
// dead-peer deadline (a peer in the same process cannot go silent without closing).
// Closing or destroying one side makes the other side's receive() return what was already
// sent to it and then fail with an io_error naming the peer. Thread-safe like any
// Connection; no threads of its own.
#pragma once

#include <cstddef>
#include <memory>

#include "iomark/common/result.hpp"
#include "iomark/protocol/connection.hpp"
#include "iomark/protocol/messages.hpp"
#include "iomark/transport/session_config.hpp"

namespace iomark::transport {

// The two ends of one link.
struct InMemoryPair {
  std::unique_ptr<protocol::Connection> agent_end;       // used by the agent; its peer() is the controller
  std::unique_ptr<protocol::Connection> controller_end;  // used by the controller; its peer() is the agent
};

// Both Hellos as from make_hello(), with AuthMode::none. PeerInfo::endpoint is "in-process".
// A send() that would leave more than `queue_limit_bytes` of frames unread by the peer (one
// frame of any size is always accepted) closes the link with a named error, as TCP does.
// Errors: invalid_argument for a Hello asking for a key; the errors of agree()
// (handshake.hpp), e.g. a version mismatch, with the code of its ErrorReport.
[[nodiscard]] Result<InMemoryPair> make_in_memory_pair(const protocol::Hello& agent,
                                                       const protocol::Hello& controller,
                                                       std::size_t queue_limit_bytes = kDefaultSendQueueLimitBytes);

}  // namespace iomark::transport
