// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM_IOCTL_TEMPO_BO_CREATE and DRM_IOCTL_TEMPO_BO_MMAP_OFFSET: buffer
 * object life cycle and argument checks.
 */
#include "tempo_test.h"

FIXTURE(bo) {
	int fd;
	uint64_t page;
};

FIXTURE_SETUP(bo)
{
	self->page = tempo_page_size();
	TEMPO_OPEN_SETUP(self->fd);
}

FIXTURE_TEARDOWN(bo)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(bo, create_mmap_write_read_close)
{
	uint64_t size = 4 * self->page;
	uint32_t handle = 0;
	uint32_t *p;

	ASSERT_EQ(0, tempo_bo_create(self->fd, size, &handle));
	ASSERT_NE(0u, handle);

	p = tempo_bo_mmap(self->fd, handle, size);
	ASSERT_TRUE(p != NULL);
	for (uint64_t i = 0; i < size / 4; i++)
		p[i] = (uint32_t)(i * 0x9e3779b9u);
	ASSERT_EQ(0, munmap(p, size));

	/* A second mapping sees what the first one wrote. */
	p = tempo_bo_mmap(self->fd, handle, size);
	ASSERT_TRUE(p != NULL);
	for (uint64_t i = 0; i < size / 4; i++)
		ASSERT_EQ((uint32_t)(i * 0x9e3779b9u), p[i]);
	ASSERT_EQ(0, munmap(p, size));

	ASSERT_EQ(0, tempo_gem_close(self->fd, handle));
}

TEST_F(bo, new_bo_reads_as_zero)
{
	uint64_t size = 16 * self->page;
	uint32_t handle;
	unsigned char *p;

	ASSERT_EQ(0, tempo_bo_create(self->fd, size, &handle));
	p = tempo_bo_mmap(self->fd, handle, size);
	ASSERT_TRUE(p != NULL);
	for (uint64_t i = 0; i < size; i++)
		ASSERT_EQ(0, p[i]);
	munmap(p, size);
}

TEST_F(bo, size_is_rounded_up_to_the_page_size)
{
	uint32_t handle;
	uint64_t va = 0;
	unsigned char *p;

	ASSERT_EQ(0, tempo_bo_create(self->fd, 1, &handle));
	/* The whole page is there, for the CPU and for the GPU. */
	p = tempo_bo_mmap(self->fd, handle, self->page);
	ASSERT_TRUE(p != NULL);
	p[self->page - 1] = 0x5a;
	ASSERT_EQ(0x5a, p[self->page - 1]);
	munmap(p, self->page);
	ASSERT_EQ(0, tempo_vm_map(self->fd, handle, DRM_TEMPO_VM_MAP_AUTO_VA,
				  &va, 0, self->page));
}

TEST_F(bo, buffers_do_not_share_memory)
{
	uint32_t a, b;
	uint32_t *pa, *pb;

	ASSERT_EQ(0, tempo_bo_create(self->fd, self->page, &a));
	ASSERT_EQ(0, tempo_bo_create(self->fd, self->page, &b));
	ASSERT_NE(a, b);
	pa = tempo_bo_mmap(self->fd, a, self->page);
	pb = tempo_bo_mmap(self->fd, b, self->page);
	ASSERT_TRUE(pa && pb);
	pa[0] = 0x11111111;
	pb[0] = 0x22222222;
	ASSERT_EQ(0x11111111u, pa[0]);
	ASSERT_EQ(0x22222222u, pb[0]);
	munmap(pa, self->page);
	munmap(pb, self->page);
}

TEST_F(bo, create_with_size_zero_fails_einval)
{
	struct drm_tempo_bo_create c = { .size = 0 };

	ASSERT_EQ(-1, ioctl(self->fd, DRM_IOCTL_TEMPO_BO_CREATE, &c));
	ASSERT_EQ(EINVAL, errno);
}

TEST_F(bo, create_with_huge_size_fails_einval)
{
	struct drm_tempo_bo_create c = { .size = 1ull << 62 };

	ASSERT_EQ(-1, ioctl(self->fd, DRM_IOCTL_TEMPO_BO_CREATE, &c));
	ASSERT_EQ(EINVAL, errno);
}

TEST_F(bo, create_with_size_that_overflows_rounding_fails_einval)
{
	/* Rounding this up to a page wraps around to 0. */
	struct drm_tempo_bo_create c = { .size = UINT64_MAX };

	ASSERT_EQ(-1, ioctl(self->fd, DRM_IOCTL_TEMPO_BO_CREATE, &c));
	ASSERT_EQ(EINVAL, errno);

	c.size = UINT64_MAX - self->page + 2;
	ASSERT_EQ(-1, ioctl(self->fd, DRM_IOCTL_TEMPO_BO_CREATE, &c));
	ASSERT_EQ(EINVAL, errno);
}

TEST_F(bo, create_with_unknown_flags_fails_einval)
{
	uint32_t bits[] = { 1u << 1, 1u << 31,
			    DRM_TEMPO_BO_CREATE_VM_PRIVATE | 1u << 2 };

	for (unsigned int i = 0; i < TEMPO_ARRAY_SIZE(bits); i++) {
		struct drm_tempo_bo_create c = {
			.size = self->page,
			.flags = bits[i],
		};

		ASSERT_EQ(-1, ioctl(self->fd, DRM_IOCTL_TEMPO_BO_CREATE, &c));
		ASSERT_EQ(EINVAL, errno);
	}
}

TEST_F(bo, mmap_offset_of_unknown_handle_fails_enoent)
{
	struct drm_tempo_bo_mmap_offset m = { .handle = 0x7fff1234 };

	ASSERT_EQ(-1, ioctl(self->fd, DRM_IOCTL_TEMPO_BO_MMAP_OFFSET, &m));
	ASSERT_EQ(ENOENT, errno);
}

TEST_F(bo, mmap_offset_of_handle_zero_fails_enoent)
{
	struct drm_tempo_bo_mmap_offset m = { .handle = 0 };

	ASSERT_EQ(-1, ioctl(self->fd, DRM_IOCTL_TEMPO_BO_MMAP_OFFSET, &m));
	ASSERT_EQ(ENOENT, errno);
}

TEST_F(bo, mmap_offset_with_nonzero_flags_fails_einval)
{
	struct drm_tempo_bo_mmap_offset m = { .flags = 1 };

	ASSERT_EQ(0, tempo_bo_create(self->fd, self->page, &m.handle));
	ASSERT_EQ(-1, ioctl(self->fd, DRM_IOCTL_TEMPO_BO_MMAP_OFFSET, &m));
	ASSERT_EQ(EINVAL, errno);
}

TEST_F(bo, mmap_offset_is_page_aligned)
{
	uint32_t handle;
	uint64_t offset;

	ASSERT_EQ(0, tempo_bo_create(self->fd, self->page, &handle));
	ASSERT_EQ(0, tempo_bo_mmap_offset(self->fd, handle, &offset));
	ASSERT_EQ(0ull, offset % self->page);
}

TEST_F(bo, gem_close_frees_the_handle)
{
	struct drm_tempo_bo_mmap_offset m = { 0 };

	ASSERT_EQ(0, tempo_bo_create(self->fd, self->page, &m.handle));
	ASSERT_EQ(0, tempo_gem_close(self->fd, m.handle));
	ASSERT_EQ(-1, ioctl(self->fd, DRM_IOCTL_TEMPO_BO_MMAP_OFFSET, &m));
	ASSERT_EQ(ENOENT, errno);
}

TEST_F(bo, handles_are_per_file)
{
	struct drm_tempo_bo_mmap_offset m = { 0 };
	int other = tempo_device_open();

	ASSERT_LE(0, other);
	ASSERT_EQ(0, tempo_bo_create(self->fd, self->page, &m.handle));
	ASSERT_EQ(-1, ioctl(other, DRM_IOCTL_TEMPO_BO_MMAP_OFFSET, &m));
	ASSERT_EQ(ENOENT, errno);
	close(other);
}

/* ------------------------------------------------------------------------ */
/* Buffers private to the file's address space */

TEST_F(bo, vm_private_buffer_is_created_and_mapped_on_the_cpu)
{
	uint32_t handle;
	uint32_t *p;

	ASSERT_EQ(0, tempo_bo_create_flags(self->fd, self->page,
					   DRM_TEMPO_BO_CREATE_VM_PRIVATE,
					   &handle));
	p = tempo_bo_mmap(self->fd, handle, self->page);
	ASSERT_TRUE(p != NULL);
	p[7] = 0x5eed;
	ASSERT_EQ(0x5eedu, p[7]);
	ASSERT_EQ(0, munmap(p, self->page));
	ASSERT_EQ(0, tempo_gem_close(self->fd, handle));
}

TEST_F(bo, export_of_a_vm_private_buffer_fails_einval)
{
	uint32_t private, shared;
	int dmabuf = -1;

	ASSERT_EQ(0, tempo_bo_create_flags(self->fd, self->page,
					   DRM_TEMPO_BO_CREATE_VM_PRIVATE,
					   &private));
	ASSERT_EQ(0, tempo_bo_create(self->fd, self->page, &shared));
	ASSERT_EQ(-1, drmPrimeHandleToFD(self->fd, private,
					 DRM_CLOEXEC | DRM_RDWR, &dmabuf));
	ASSERT_EQ(EINVAL, errno);
	/* A shared buffer of the same file exports. */
	ASSERT_EQ(0, drmPrimeHandleToFD(self->fd, shared,
					DRM_CLOEXEC | DRM_RDWR, &dmabuf));
	close(dmabuf);
}

TEST_HARNESS_MAIN
