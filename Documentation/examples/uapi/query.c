// SPDX-License-Identifier: MIT
/*
 * uAPI guide example: DRM_IOCTL_TEMPO_QUERY and its size probe.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <xf86drm.h>
#include <drm/tempo_drm.h>

#include "examples.h"

/* example: query */
/*
 * Ask one question: the first call, with size 0, returns the size of the
 * answer; the second fills a buffer of exactly that size. Returns the
 * answer (to free()) or NULL with errno set: EINVAL for a query id this
 * kernel does not know, which is how to probe for a newer one.
 */
void *ex_query(int fd, uint32_t query_id, uint32_t *size)
{
	struct drm_tempo_query q = { .query = query_id };
	void *data;
	int err;

	if (drmIoctl(fd, DRM_IOCTL_TEMPO_QUERY, &q))
		return NULL;
	data = calloc(1, q.size);
	if (!data)
		return NULL;
	q.data = (uintptr_t)data;
	if (drmIoctl(fd, DRM_IOCTL_TEMPO_QUERY, &q)) {
		err = errno;
		free(data);
		errno = err;
		return NULL;
	}
	*size = q.size;
	return data;
}

/*
 * A newer kernel may append fields to an answer, an older one have fewer:
 * never pass sizeof(*out) blindly, probe, and keep the fields this build
 * knows (the others read as zero).
 */
int ex_query_struct(int fd, uint32_t query_id, void *out, uint32_t len)
{
	uint32_t size;
	void *answer = ex_query(fd, query_id, &size);

	if (!answer)
		return -errno;
	memset(out, 0, len);
	memcpy(out, answer, size < len ? size : len);
	free(answer);
	return 0;
}

int example_query(int fd, struct drm_tempo_query_device *dev)
{
	struct drm_tempo_query_engines *engines;
	uint32_t size;
	int ret;

	ret = ex_query_struct(fd, DRM_TEMPO_QUERY_DEVICE, dev, sizeof(*dev));
	if (ret)
		return ret;

	/* ENGINES: a count, then one entry per engine (the default map). */
	engines = ex_query(fd, DRM_TEMPO_QUERY_ENGINES, &size);
	if (!engines)
		return -errno;
	if (engines->num_engines != dev->num_engines ||
	    size < sizeof(*engines) +
		   engines->num_engines * sizeof(engines->engines[0])) {
		free(engines);
		return -EPROTO;
	}
	free(engines);
	return 0;
}

/* example: query-limits */
/*
 * What one file may hold at once: more contexts or mappings fail with
 * ENOSPC, more jobs in flight with EAGAIN (wait for a fence, submit again).
 * A kernel without the query answers EINVAL.
 */
int example_query_limits(int fd, struct drm_tempo_query_limits *limits)
{
	return ex_query_struct(fd, DRM_TEMPO_QUERY_LIMITS, limits,
			       sizeof(*limits));
}
/* end of example */

/* The engines of one class, as engine map entries; returns their number. */
int ex_engines_of_class(int fd, uint16_t engine_class,
			struct drm_tempo_engine *engines, uint32_t max)
{
	struct drm_tempo_query_engines *all;
	uint32_t size;
	int n;

	all = ex_query(fd, DRM_TEMPO_QUERY_ENGINES, &size);
	if (!all)
		return -errno;
	n = (int)tempo_engines_of_class(all, engine_class, engines, max);
	free(all);
	return n;
}

/* example: query-errors */
int example_query_errors(int fd)
{
	struct drm_tempo_query_device dev;
	struct drm_tempo_query q = {
		.query = DRM_TEMPO_QUERY_DEVICE,
		.data = (uintptr_t)&dev,
	};

	/* A size that is neither 0 nor the answer's: -EINVAL. */
	q.size = 4;
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_QUERY, &q, EINVAL))
		return -EPROTO;

	/* A query id the kernel does not know: -EINVAL. */
	q.query = 0x7fff;
	q.size = 0;
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_QUERY, &q, EINVAL))
		return -EPROTO;

	/* MBZ fields (flags, pad, extensions) set: -EINVAL. */
	q.query = DRM_TEMPO_QUERY_DEVICE;
	q.flags = 1;
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_QUERY, &q, EINVAL))
		return -EPROTO;
	return 0;
}
/* end of example */
