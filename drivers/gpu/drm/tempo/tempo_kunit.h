/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The one way tempo's KUnit suites declare themselves.
 */
#ifndef _TEMPO_KUNIT_H_
#define _TEMPO_KUNIT_H_

#include <kunit/test.h>

/*
 * TEMPO_KUNIT_SUITE(id, init, exit, cases...) - declare the suite
 * "tempo_<id>" of the KUNIT_CASE()s listed, with its fixture's init and
 * exit functions (NULL for none).
 */
#define TEMPO_KUNIT_SUITE(id, init_fn, exit_fn, ...)			\
	static struct kunit_case tempo_##id##_cases[] = {		\
		__VA_ARGS__,						\
		{}							\
	};								\
	static struct kunit_suite tempo_##id##_suite = {		\
		.name = "tempo_" #id,					\
		.init = init_fn,					\
		.exit = exit_fn,					\
		.test_cases = tempo_##id##_cases,			\
	};								\
	kunit_test_suite(tempo_##id##_suite)

#endif /* _TEMPO_KUNIT_H_ */
