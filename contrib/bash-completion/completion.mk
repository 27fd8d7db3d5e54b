# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# bash completion for every program. bash-completion loads a completion by
# the command's name, so the one script is installed as "gdperf" in
# $(bashcompdir) (from bash-completion.pc, see configure) and linked under
# the name of every installed program; the options come from each program's
# --help at completion time, the test checks them against the option tables.
EXTRA_DIST += contrib/bash-completion/gdperf

install-data-hook: install-bash-completion
uninstall-hook: uninstall-bash-completion

install-bash-completion:
	$(MKDIR_P) '$(DESTDIR)$(bashcompdir)'
	$(INSTALL_DATA) '$(srcdir)/contrib/bash-completion/gdperf' \
		'$(DESTDIR)$(bashcompdir)/gdperf'
	cd '$(DESTDIR)$(bashcompdir)' && for p in $(bin_PROGRAMS); do \
		p=$${p%$(EXEEXT)}; rm -f "$$p" && $(LN_S) gdperf "$$p" || exit 1; \
	done

uninstall-bash-completion:
	cd '$(DESTDIR)$(bashcompdir)' 2>/dev/null || exit 0; \
	for p in $(bin_PROGRAMS); do rm -f "$${p%$(EXEEXT)}"; done; \
	rm -f gdperf

.PHONY: install-bash-completion uninstall-bash-completion

TESTS += contrib/bash-completion/completion-test.sh
EXTRA_DIST += contrib/bash-completion/completion-test.sh
