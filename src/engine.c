/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Placeholder until the engine lands. */
#include <config.h>
#include "test.h"
