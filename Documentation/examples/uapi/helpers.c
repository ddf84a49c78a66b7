// SPDX-License-Identifier: MIT
/*
 * The helpers of the uAPI guide's examples: the check of an expected
 * error, and a batch of one packet, written with the packet writers of
 * tools/lib/tempo-uapi.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <xf86drm.h>

#include "examples.h"

/* example: helpers */
/*
 * Whether the ioctl @request on @fd, with @arg, fails with errno
 * @expected: what each mistake of the "-errors" examples checks.
 */
bool ex_fails_with(int fd, unsigned long request, void *arg, int expected)
{
	return drmIoctl(fd, request, arg) && errno == expected;
}

/*
 * A batch at byte @offset of @buf (a buffer of tempo_bo_new()) that writes
 * @value at the GPU address @dst, then ends. Returns the batch's GPU
 * address, for drm_tempo_exec.batches.
 */
uint64_t ex_batch_write(const struct tempo_bo *buf, uint64_t offset,
			uint64_t dst, uint32_t value)
{
	struct tempo_batch batch;

	tempo_batch_init(&batch, buf, offset, 16);
	tempo_pkt_write32(&batch, dst, value);	/* WRITE_DATA, 4 dwords */
	tempo_pkt_end(&batch);			/* END, 1 dword */
	return batch.va;
}
/* end of example */
