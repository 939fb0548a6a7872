// iomark::transport: the implementations of protocol::Connection (protocol/connection.hpp).
//   tcp.hpp             Listener, dial(), dial_with_backoff(): agents and controllers over TCP
//   in_memory.hpp       make_in_memory_pair(): the embedded agent, same frames, no socket
//   session_config.hpp  our Hello, the key, timeouts and queue limits
//   key_file.hpp        load_key(): --key-file or IOMARK_KEY
//   tls.hpp             load_tls(): --tls-cert, --tls-key and --tls-ca
//   host_port.hpp       "HOST[:PORT]" and "[ADDR:]PORT" as the command lines write them
#pragma once

#include "iomark/transport/host_port.hpp"
#include "iomark/transport/in_memory.hpp"
#include "iomark/transport/key_file.hpp"
#include "iomark/transport/session_config.hpp"
#include "iomark/transport/tcp.hpp"
#include "iomark/transport/tls.hpp"
