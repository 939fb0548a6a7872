// `iomark-agent engines`: which I/O engines work on this host and why the others do not
// (as fio's --enghelp), so an operator can pick --engine before a run refuses it.
#pragma once

namespace iomark::agent_app {

// Probes every engine, prints one line each on standard output; returns the exit code
// (0, or 1 when none of the probed engines works).
int list_engines();

}  // namespace iomark::agent_app
