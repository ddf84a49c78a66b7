// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM_IOCTL_TEMPO_VM_MAP and DRM_IOCTL_TEMPO_VM_UNMAP: the per-file GPU
 * virtual address space.
 */
#include "tempo_test.h"

#define BO_PAGES	4

FIXTURE(vm) {
	int fd;
	uint64_t page;
	struct drm_tempo_query_device dev;
	uint32_t handle;	/* a BO_PAGES buffer */
	uint64_t bo_size;
	uint64_t va;		/* a free, page aligned address for it */
};

FIXTURE_SETUP(vm)
{
	self->page = tempo_page_size();
	self->bo_size = BO_PAGES * self->page;
	TEMPO_OPEN_SETUP(self->fd);
	ASSERT_EQ(0, tempo_query_device(self->fd, &self->dev));
	ASSERT_LE(self->dev.va_start + 64 * self->page, self->dev.va_end);
	ASSERT_EQ(0, tempo_bo_create(self->fd, self->bo_size, &self->handle));
	/* Nothing is mapped in a new file: the bottom of the range is free. */
	self->va = self->dev.va_start + 16 * self->page;
}

FIXTURE_TEARDOWN(vm)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* VM_MAP as given: 0 or -errno. */
static int map_raw(int fd, uint32_t handle, uint32_t flags, uint64_t va,
		   uint64_t bo_offset, uint64_t size)
{
	struct drm_tempo_vm_map m = {
		.handle = handle, .flags = flags, .va = va,
		.bo_offset = bo_offset, .size = size,
	};

	return tempo_ioctl_raw(fd, DRM_IOCTL_TEMPO_VM_MAP, &m);
}

/* VM_UNMAP as given: 0 or -errno. */
static int unmap_raw(int fd, uint64_t va, uint64_t size, uint32_t flags,
		     uint32_t pad)
{
	struct drm_tempo_vm_unmap u = {
		.va = va, .size = size, .flags = flags, .pad = pad,
	};

	return tempo_ioctl_raw(fd, DRM_IOCTL_TEMPO_VM_UNMAP, &u);
}

/* Map @size bytes from the start of the buffer at @va: 0 or -errno. */
static int map(FIXTURE_DATA(vm) *self, uint64_t va, uint64_t size)
{
	return map_raw(self->fd, self->handle, 0, va, 0, size);
}

/* ------------------------------------------------------------------------ */
/* Mapping */

TEST_F(vm, map_at_fixed_va_returns_that_va)
{
	uint64_t va = self->va;

	ASSERT_EQ(0, tempo_vm_map(self->fd, self->handle, 0, &va, 0,
				  self->bo_size));
	ASSERT_EQ(self->va, va);
}

TEST_F(vm, map_at_va_start_succeeds)
{
	uint64_t va = self->dev.va_start;

	ASSERT_EQ(0, tempo_vm_map(self->fd, self->handle, 0, &va, 0,
				  self->page));
	ASSERT_EQ(self->dev.va_start, va);
}

TEST_F(vm, map_of_last_page_of_va_range_succeeds)
{
	uint64_t va = self->dev.va_end - self->page;

	ASSERT_EQ(0, tempo_vm_map(self->fd, self->handle, 0, &va, 0,
				  self->page));
	ASSERT_EQ(self->dev.va_end - self->page, va);
}

TEST_F(vm, map_auto_va_returns_page_aligned_va_in_range)
{
	uint64_t va = 0;

	ASSERT_EQ(0, tempo_vm_map(self->fd, self->handle,
				  DRM_TEMPO_VM_MAP_AUTO_VA, &va, 0,
				  self->bo_size));
	ASSERT_EQ(0ull, va % self->page);
	ASSERT_LE(self->dev.va_start, va);
	ASSERT_LE(va + self->bo_size, self->dev.va_end);
}

TEST_F(vm, map_auto_va_avoids_existing_mappings)
{
	uint64_t fixed = self->va, a = 0, b = 0;

	ASSERT_EQ(0, map(self, fixed, self->bo_size));
	ASSERT_EQ(0, tempo_vm_map(self->fd, self->handle,
				  DRM_TEMPO_VM_MAP_AUTO_VA, &a, 0,
				  self->bo_size));
	ASSERT_EQ(0, tempo_vm_map(self->fd, self->handle,
				  DRM_TEMPO_VM_MAP_AUTO_VA, &b, 0,
				  self->bo_size));
	/* Three disjoint ranges. */
	ASSERT_TRUE(a + self->bo_size <= fixed || fixed + self->bo_size <= a);
	ASSERT_TRUE(b + self->bo_size <= fixed || fixed + self->bo_size <= b);
	ASSERT_TRUE(a + self->bo_size <= b || b + self->bo_size <= a);
}

TEST_F(vm, map_readonly_succeeds)
{
	uint64_t va = 0;

	ASSERT_EQ(0, tempo_vm_map(self->fd, self->handle,
				  DRM_TEMPO_VM_MAP_READONLY |
				  DRM_TEMPO_VM_MAP_AUTO_VA, &va, 0,
				  self->bo_size));
}

TEST_F(vm, map_part_of_a_buffer_succeeds)
{
	uint64_t va = self->va;

	ASSERT_EQ(0, tempo_vm_map(self->fd, self->handle, 0, &va,
				  self->page, 2 * self->page));
}

TEST_F(vm, map_of_the_last_page_of_a_buffer_succeeds)
{
	uint64_t va = self->va;

	ASSERT_EQ(0, tempo_vm_map(self->fd, self->handle, 0, &va,
				  self->bo_size - self->page, self->page));
}

TEST_F(vm, map_same_buffer_twice_succeeds)
{
	uint64_t a = self->va, b = self->va + self->bo_size;

	ASSERT_EQ(0, map(self, a, self->bo_size));
	ASSERT_EQ(0, map(self, b, self->bo_size));
}

TEST_F(vm, map_adjacent_ranges_succeeds)
{
	uint64_t a = self->va, b = self->va + self->page;

	ASSERT_EQ(0, map(self, a, self->page));
	ASSERT_EQ(0, map(self, b, self->page));
	b = self->va - self->page;
	ASSERT_EQ(0, map(self, b, self->page));
}

TEST_F(vm, address_spaces_are_per_file)
{
	uint64_t va = self->va;
	uint32_t other_handle;
	int other = tempo_device_open();

	ASSERT_LE(0, other);
	ASSERT_EQ(0, map(self, va, self->bo_size));
	/* The same range is free in another file. */
	ASSERT_EQ(0, tempo_bo_create(other, self->bo_size, &other_handle));
	ASSERT_EQ(0, tempo_vm_map(other, other_handle, 0, &va, 0,
				  self->bo_size));
	/* Unmapping in one file leaves the other file's mapping alone. */
	ASSERT_EQ(0, tempo_vm_unmap(other, va, self->bo_size));
	ASSERT_EQ(-ENOENT, unmap_raw(other, va, self->bo_size, 0, 0));
	ASSERT_EQ(0, tempo_vm_unmap(self->fd, va, self->bo_size));
	close(other);
}

/*
 * Open the card node twice: @master first (it becomes DRM master), then
 * @other, authenticated by @master so that it may open flink names.
 * Returns 0, or -errno when the node is missing or cannot be opened.
 */
static int open_card_pair(int *master, int *other)
{
	drm_magic_t magic;
	char card[32];
	int ret;

	*master = *other = -1;
	ret = tempo_device_card_path(card, sizeof(card));
	if (ret)
		return ret;
	*master = open(card, O_RDWR | O_CLOEXEC);
	*other = open(card, O_RDWR | O_CLOEXEC);
	if (*master < 0 || *other < 0)
		return -errno;
	if (drmGetMagic(*other, &magic) || drmAuthMagic(*master, magic))
		return -errno;
	return 0;
}

TEST_F(vm, private_buffer_of_another_file_maps_fails_einval)
{
	struct drm_gem_flink flink = { 0 };
	struct drm_gem_open gopen = { 0 };
	uint64_t va = self->va;
	int master, other, ret;

	ret = open_card_pair(&master, &other);
	if (ret) {
		close(master);
		close(other);
		SKIP(return, "no authenticated pair of card files: %d", ret);
	}
	ASSERT_EQ(0, tempo_bo_create_flags(master, self->page,
					   DRM_TEMPO_BO_CREATE_VM_PRIVATE,
					   &flink.handle));
	ASSERT_EQ(0, tempo_ioctl(master, DRM_IOCTL_GEM_FLINK, &flink));
	gopen.name = flink.name;
	ASSERT_EQ(0, tempo_ioctl(other, DRM_IOCTL_GEM_OPEN, &gopen));
	ASSERT_EQ(-EINVAL, map_raw(other, gopen.handle, 0, va, 0,
				   self->page));
	/* In its own file it maps; then that file goes, the other stays. */
	ASSERT_EQ(0, map_raw(master, flink.handle, 0, va, 0, self->page));
	close(master);
	ASSERT_EQ(-EINVAL, map_raw(other, gopen.handle, 0, va, 0,
				   self->page));
	ASSERT_EQ(0, tempo_gem_close(other, gopen.handle));
	close(other);
}

/* ------------------------------------------------------------------------ */
/* Rejected mappings */

TEST_F(vm, map_with_misaligned_va_fails_einval)
{
	ASSERT_EQ(-EINVAL, map_raw(self->fd, self->handle, 0, self->va + 4, 0,
				   self->page));
	ASSERT_EQ(-EINVAL, map_raw(self->fd, self->handle, 0,
				   self->va + self->page / 2, 0, self->page));
}

TEST_F(vm, map_with_misaligned_offset_fails_einval)
{
	ASSERT_EQ(-EINVAL, map_raw(self->fd, self->handle, 0, self->va, 8,
				   self->page));
}

TEST_F(vm, map_with_misaligned_size_fails_einval)
{
	ASSERT_EQ(-EINVAL, map_raw(self->fd, self->handle, 0, self->va, 0,
				   self->page + 4));
	ASSERT_EQ(-EINVAL, map_raw(self->fd, self->handle, 0, self->va, 0,
				   self->page - 4));
}

TEST_F(vm, map_with_size_zero_fails_einval)
{
	ASSERT_EQ(-EINVAL, map_raw(self->fd, self->handle, 0, self->va, 0, 0));
}

TEST_F(vm, map_beyond_end_of_buffer_fails_einval)
{
	ASSERT_EQ(-EINVAL, map_raw(self->fd, self->handle, 0, self->va, 0,
				   self->bo_size + self->page));
}

TEST_F(vm, map_with_offset_past_end_of_buffer_fails_einval)
{
	ASSERT_EQ(-EINVAL, map_raw(self->fd, self->handle, 0, self->va,
				   self->bo_size, self->page));
	ASSERT_EQ(-EINVAL, map_raw(self->fd, self->handle, 0, self->va,
				   self->page, self->bo_size));
}

TEST_F(vm, map_with_offset_plus_size_overflow_fails_einval)
{
	/* bo_offset + size wraps to a small number. */
	ASSERT_EQ(-EINVAL, map_raw(self->fd, self->handle, 0, self->va,
				   -self->page, 2 * self->page));
}

TEST_F(vm, map_below_va_start_fails_einval)
{
	if (self->dev.va_start < self->page)
		SKIP(return, "the VA range starts at 0");
	ASSERT_EQ(-EINVAL, map_raw(self->fd, self->handle, 0,
				   self->dev.va_start - self->page, 0,
				   self->page));
	/* Straddling va_start. */
	ASSERT_EQ(-EINVAL, map_raw(self->fd, self->handle, 0,
				   self->dev.va_start - self->page, 0,
				   2 * self->page));
}

TEST_F(vm, map_crossing_va_end_fails_einval)
{
	ASSERT_EQ(-EINVAL, map_raw(self->fd, self->handle, 0,
				   self->dev.va_end - self->page, 0,
				   2 * self->page));
}

TEST_F(vm, map_at_va_end_fails_einval)
{
	if (self->dev.va_end == 0 || self->dev.va_end > UINT64_MAX - self->page)
		SKIP(return, "va_end is the top of the address space");
	ASSERT_EQ(-EINVAL, map_raw(self->fd, self->handle, 0, self->dev.va_end,
				   0, self->page));
}

TEST_F(vm, map_with_va_plus_size_overflow_fails_einval)
{
	ASSERT_EQ(-EINVAL, map_raw(self->fd, self->handle, 0, -self->page, 0,
				   2 * self->page));
}

TEST_F(vm, map_overlapping_a_mapping_fails_enospc)
{
	uint64_t va = self->va;
	uint64_t size = 2 * self->page;

	ASSERT_EQ(0, map(self, va, size));
	/* Same range, tail, head, inside and around. */
	ASSERT_EQ(-ENOSPC, map_raw(self->fd, self->handle, 0, va, 0, size));
	ASSERT_EQ(-ENOSPC, map_raw(self->fd, self->handle, 0, va + self->page,
				   0, size));
	ASSERT_EQ(-ENOSPC, map_raw(self->fd, self->handle, 0, va - self->page,
				   0, size));
	ASSERT_EQ(-ENOSPC, map_raw(self->fd, self->handle, 0, va + self->page,
				   0, self->page));
	ASSERT_EQ(-ENOSPC, map_raw(self->fd, self->handle, 0, va - self->page,
				   0, BO_PAGES * self->page));
}

TEST_F(vm, map_unknown_handle_fails_enoent)
{
	ASSERT_EQ(-ENOENT, map_raw(self->fd, self->handle + 1000, 0, self->va,
				   0, self->page));
}

TEST_F(vm, map_closed_handle_fails_enoent)
{
	ASSERT_EQ(0, tempo_gem_close(self->fd, self->handle));
	ASSERT_EQ(-ENOENT, map_raw(self->fd, self->handle, 0, self->va, 0,
				   self->page));
}

TEST_F(vm, map_with_unknown_flags_fails_einval)
{
	uint32_t bits[] = { 1u << 2, 1u << 31, ~DRM_TEMPO_VM_MAP_FLAGS };

	for (unsigned int i = 0; i < TEMPO_ARRAY_SIZE(bits); i++) {
		ASSERT_EQ(-EINVAL, map_raw(self->fd, self->handle, bits[i],
					   self->va, 0, self->page));
	}
}

TEST_F(vm, map_auto_va_with_nonzero_va_fails_einval)
{
	ASSERT_EQ(-EINVAL, map_raw(self->fd, self->handle,
				   DRM_TEMPO_VM_MAP_AUTO_VA, self->va, 0,
				   self->page));
}

TEST_F(vm, rejected_map_leaves_the_range_free)
{
	uint64_t va = self->va;

	/* Rejected for its size, after everything else was checked. */
	ASSERT_EQ(-EINVAL, map_raw(self->fd, self->handle, 0, self->va, 0,
				   self->bo_size + self->page));
	ASSERT_EQ(0, map(self, va, self->bo_size));
}

/* ------------------------------------------------------------------------ */
/* Unmapping */

TEST_F(vm, unmap_of_a_mapping_succeeds)
{
	uint64_t va = self->va;

	ASSERT_EQ(0, map(self, va, self->bo_size));
	ASSERT_EQ(0, unmap_raw(self->fd, va, self->bo_size, 0, 0));
}

TEST_F(vm, unmap_of_nothing_fails_enoent)
{
	ASSERT_EQ(-ENOENT, unmap_raw(self->fd, self->va, self->page, 0, 0));
}

TEST_F(vm, unmap_with_wrong_size_fails_enoent)
{
	uint64_t va = self->va;

	ASSERT_EQ(0, map(self, va, 2 * self->page));
	ASSERT_EQ(-ENOENT, unmap_raw(self->fd, va, self->page, 0, 0));
	ASSERT_EQ(-ENOENT, unmap_raw(self->fd, va, 3 * self->page, 0, 0));
	/* The mapping is still there, whole. */
	ASSERT_EQ(0, unmap_raw(self->fd, va, 2 * self->page, 0, 0));
}

TEST_F(vm, unmap_of_the_middle_of_a_mapping_fails_enoent)
{
	uint64_t va = self->va;

	ASSERT_EQ(0, map(self, va, 3 * self->page));
	ASSERT_EQ(-ENOENT, unmap_raw(self->fd, va + self->page, self->page, 0,
				     0));
}

TEST_F(vm, unmap_spanning_two_mappings_fails_enoent)
{
	uint64_t a = self->va, b = self->va + self->page;

	ASSERT_EQ(0, map(self, a, self->page));
	ASSERT_EQ(0, map(self, b, self->page));
	ASSERT_EQ(-ENOENT, unmap_raw(self->fd, a, 2 * self->page, 0, 0));
}

TEST_F(vm, unmap_twice_fails_enoent)
{
	uint64_t va = self->va;

	ASSERT_EQ(0, map(self, va, self->page));
	ASSERT_EQ(0, unmap_raw(self->fd, va, self->page, 0, 0));
	ASSERT_EQ(-ENOENT, unmap_raw(self->fd, va, self->page, 0, 0));
}

TEST_F(vm, unmap_with_nonzero_flags_fails_einval)
{
	uint64_t va = self->va;

	ASSERT_EQ(0, map(self, va, self->page));
	ASSERT_EQ(-EINVAL, unmap_raw(self->fd, va, self->page, 1, 0));
	/* Nothing was removed. */
	ASSERT_EQ(0, unmap_raw(self->fd, va, self->page, 0, 0));
}

TEST_F(vm, unmap_with_nonzero_pad_fails_einval)
{
	uint64_t va = self->va;

	ASSERT_EQ(0, map(self, va, self->page));
	ASSERT_EQ(-EINVAL, unmap_raw(self->fd, va, self->page, 0, 1));
	ASSERT_EQ(0, unmap_raw(self->fd, va, self->page, 0, 0));
}

TEST_F(vm, range_can_be_mapped_again_after_unmap)
{
	uint64_t va = self->va;

	ASSERT_EQ(0, map(self, va, self->bo_size));
	ASSERT_EQ(0, tempo_vm_unmap(self->fd, va, self->bo_size));
	ASSERT_EQ(0, tempo_vm_map(self->fd, self->handle, 0, &va, 0,
				  self->bo_size));
	ASSERT_EQ(self->va, va);
}

/* ------------------------------------------------------------------------ */
/* What the GPU sees */

FIXTURE(vm_gpu) {
	struct tempo_env env;
	uint64_t page;
};

FIXTURE_SETUP(vm_gpu)
{
	self->page = tempo_page_size();
	TEMPO_ENV_SETUP(&self->env);
}

FIXTURE_TEARDOWN(vm_gpu)
{
	tempo_env_fini(&self->env);
}

TEST_F(vm_gpu, mapping_keeps_buffer_alive_after_gem_close)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;
	struct tempo_bo bo;
	uint32_t words[4] = { 0xc0ffee00, 0xc0ffee01, 0xc0ffee02, 0xc0ffee03 };

	ASSERT_EQ(0, tempo_bo_new(e->fd, self->page, 0, &bo));
	ASSERT_EQ(0, tempo_gem_close(e->fd, bo.handle));

	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_write_data(&b, bo.va + 64, words, 4);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, 0, b.va));

	/* Read back through the CPU mapping made before GEM_CLOSE. */
	for (unsigned int i = 0; i < 4; i++)
		ASSERT_EQ(words[i], tempo_u32(&bo, 64)[i]);
	munmap(bo.map, bo.size);
}

TEST_F(vm_gpu, private_buffer_is_written_by_a_job)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;
	struct tempo_bo bo;

	ASSERT_EQ(0, tempo_bo_new_flags(e->fd, self->page,
					DRM_TEMPO_BO_CREATE_VM_PRIVATE, 0,
					&bo));
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_write32(&b, bo.va + 16, 0x9a7e);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, 0, b.va));
	ASSERT_EQ(0x9a7eu, *tempo_u32(&bo, 16));
	tempo_bo_del(e->fd, &bo);
}

TEST_F(vm_gpu, second_mapping_of_a_buffer_aliases_the_first)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;
	uint64_t alias = 0;

	ASSERT_EQ(0, tempo_vm_map(e->fd, e->data.handle,
				  DRM_TEMPO_VM_MAP_AUTO_VA, &alias,
				  self->page, self->page));
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_write32(&b, alias + 8, 0xa11a5);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, 0, b.va));
	ASSERT_EQ(0xa11a5u, *tempo_u32(&e->data, self->page + 8));
}

TEST_F(vm_gpu, access_after_unmap_faults_efault)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;
	struct tempo_bo bo;

	ASSERT_EQ(0, tempo_bo_new(e->fd, self->page, 0, &bo));
	ASSERT_EQ(0, tempo_vm_unmap(e->fd, bo.va, bo.size));

	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_write32(&b, bo.va, 0xbad);
	tempo_pkt_end(&b);
	ASSERT_EQ(-EFAULT, tempo_run(_metadata, e->fd, e->ctx, 0, b.va));
	ASSERT_EQ(0u, *tempo_u32(&bo, 0));
	bo.va = 0;
	tempo_bo_del(e->fd, &bo);
}

TEST_F(vm_gpu, remapped_range_reaches_the_new_buffer)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;
	struct tempo_bo first, second;
	uint64_t va;

	ASSERT_EQ(0, tempo_bo_new(e->fd, self->page, 0, &first));
	ASSERT_EQ(0, tempo_bo_new(e->fd, self->page, 0, &second));
	va = first.va;
	ASSERT_EQ(0, tempo_vm_unmap(e->fd, first.va, self->page));
	first.va = 0;
	ASSERT_EQ(0, tempo_vm_unmap(e->fd, second.va, self->page));
	second.va = va;
	ASSERT_EQ(0, tempo_vm_map(e->fd, second.handle, 0, &va, 0,
				  self->page));

	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_write32(&b, va + 16, 0x5ec0d);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, 0, b.va));
	ASSERT_EQ(0x5ec0du, *tempo_u32(&second, 16));
	ASSERT_EQ(0u, *tempo_u32(&first, 16));
	tempo_bo_del(e->fd, &first);
	tempo_bo_del(e->fd, &second);
}

TEST_HARNESS_MAIN
