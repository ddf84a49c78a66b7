// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe dma_fence_signal_detaches_ops: dma_fence_signal() detaches a signalled
 * fence from its ops when they have neither .wait nor .release, so that the
 * fence may outlive the module that made it; before, the fence's last
 * reference read the ops. The detachment itself is invisible to the compiler;
 * what the header gained with it is dma_fence_was_initialized() (from the same
 * series: a detached fence's ops no longer tell whether it was initialised).
 *
 * Upstream: 541c8f2468b9 ("dma-buf: detach fence ops on signal"),
 *   2bcbc706dfa0, 7.1.
 * Debian: 7.3 has it; 6.12 and 6.1 do not.
 */
#include <linux/dma-fence.h>

bool probe(struct dma_fence *fence);
bool probe(struct dma_fence *fence)
{
	return dma_fence_was_initialized(fence);
}
