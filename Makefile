# blockphys - development Makefile. `make` builds blockphys/core.so; see README.md.
# Works standalone; LuaRocks builds with the rockspec (builtin) instead.

# The interpreter to build and test for: lua5.1, lua5.2, lua5.3, lua5.4 (the default)
# or luajit (LuaJIT 2.1, whose C API is Lua 5.1's). Each has its own build directory,
# build/$(LUA)/ (the module is build/$(LUA)/blockphys/core.so), and its own Debian
# packages; LUA_V is the Lua version of its paths (5.1 for LuaJIT).
LUA        ?= lua5.4
LUA_NAME    = $(notdir $(LUA))
LUA_V      ?= $(if $(filter luajit%,$(LUA_NAME)),5.1,$(patsubst lua%,%,$(LUA_NAME)))
LUA_INCDIR ?= $(firstword $(wildcard $(if $(filter luajit%,$(LUA_NAME)),\
                /usr/include/luajit-2.1 /usr/local/include/luajit-2.1,\
                /usr/include/lua$(LUA_V) /usr/local/include/lua$(LUA_V) /usr/local/include)))
# Lua 5.1, 5.2 and LuaJIT take 5.3's API from compat-5.3 (csrc/binding/lcompat.h):
# Debian's lua-compat53-dev puts compat-5.3.h and .c in Lua 5.1's and 5.2's include
# directories (LuaJIT uses 5.1's).
COMPAT53_INCDIR ?= $(patsubst %/compat-5.3.h,%,$(firstword $(wildcard \
                     $(LUA_INCDIR)/compat-5.3.h /usr/include/lua$(LUA_V)/compat-5.3.h \
                     /usr/local/include/lua$(LUA_V)/compat-5.3.h)))
BUSTED     ?= $(LUA) /usr/bin/busted
CC         ?= cc
OPT        ?= -O2
WARN        = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -pedantic
CFLAGS     ?= $(OPT)
BASE_CFLAGS = -std=c11 $(WARN) -fPIC -ffp-contract=off -fvisibility=hidden -MMD -MP $(CFLAGS)
# The core is compiled without Lua's include path, so that an #include of a Lua header
# there fails the build; the binding sees only the core's public headers.
CORE_CFLAGS = $(BASE_CFLAGS) -Icsrc/core -Icsrc/core/include
BIND_CFLAGS = $(BASE_CFLAGS) -Icsrc/core/include -I$(LUA_INCDIR) $(if $(COMPAT53_INCDIR),-I$(COMPAT53_INCDIR))
LIBFLAG    ?= -shared
BUILD      ?= build/$(LUA_NAME)
CORE_SRC    = $(wildcard csrc/core/*.c)
BIND_SRC    = $(wildcard csrc/binding/*.c)
OBJ         = $(CORE_SRC:csrc/%.c=$(BUILD)/obj/%.o) $(BIND_SRC:csrc/%.c=$(BUILD)/obj/%.o)
MODULE      = $(BUILD)/blockphys/core.so
# Debian packages each target needs: building needs a C compiler, the interpreter and
# its headers (and compat-5.3 for 5.1, 5.2 and LuaJIT), the suite busted and lua-zlib
# (gzip schematics; one package serves every version). Each target's recipe runs `deps`
# with its own list first (so `make test lint` asks for both lists); plain `make deps`
# asks for everything .ci/run uses (every interpreter, luarocks included).
debs_lua    = $(if $(filter luajit%,$(1)),luajit libluajit-5.1-dev lua-compat53-dev,\
                $(if $(filter lua5.1,$(1)),lua5.1 liblua5.1-0-dev lua-compat53-dev,\
                $(if $(filter lua5.2,$(1)),lua5.2 liblua5.2-dev lua-compat53-dev,$(1) lib$(1)-dev)))
LUAS        = lua5.1 lua5.2 lua5.3 lua5.4 luajit
DEBS_BUILD  = gcc libc6-dev $(call debs_lua,$(LUA_NAME))
DEBS_TEST   = $(DEBS_BUILD) lua-busted lua-zlib
DEBS_ALL    = gcc libc6-dev $(foreach l,$(LUAS),$(call debs_lua,$(l))) lua-busted lua-zlib \
              lua-check luarocks valgrind gnuplot-nox
DEBS       ?= $(DEBS_ALL)
NEED        = @$(MAKE) --no-print-directory deps DEBS=
INST_LIBDIR ?= /usr/local/lib/lua/$(LUA_V)
INST_LUADIR ?= /usr/local/share/lua/$(LUA_V)

.PHONY: all module test-tools deps test test-all demo repl bench check sanitize memcheck lint structure docs clean install

# `make` first installs missing Debian packages (deps), then builds in a sub-make:
# LUA_INCDIR is found when the Makefile is read, so the build must be read again
# after deps may have installed the headers.
all:
	$(NEED)"$(DEBS_BUILD)"
	@$(MAKE) --no-print-directory module

module: $(MODULE)

# The default build (lua5.4's) is also copied to ./blockphys/core.so (docs/building.md),
# so that package.cpath = "./?.so;..." finds it from the checkout; another
# interpreter's build (make LUA=luajit) leaves it alone (make repl LUA=luajit puts its
# own build on the paths). Compared on every make, not by date: `luarocks make` in the
# checkout writes its own build there.
# The Lua modules are linked there too, so that a plain `lua5.4` started in the
# checkout finds `require "blockphys"` through its default paths (./?/init.lua,
# ./?.lua, ./?.so): the README's hello world needs no path setup. A subpackage
# (lua/blockphys/schematic/, ...) is linked as its directory, so that the modules
# in it need no link of their own.
ifeq ($(BUILD),build/lua5.4)
LUA_DIRS  = $(patsubst lua/%/,%,$(wildcard lua/blockphys/*/))
LUA_LINKS = $(patsubst lua/%,%,$(wildcard lua/blockphys/*.lua)) $(LUA_DIRS)
module: blockphys/core.so $(LUA_LINKS)
blockphys/core.so: $(MODULE) FORCE | blockphys
	@cmp -s $(MODULE) $@ || { echo "cp $(MODULE) $@"; cp $(MODULE) $@.tmp && mv $@.tmp $@; }
blockphys/%.lua: | blockphys
	ln -sf ../lua/blockphys/$*.lua $@
$(LUA_DIRS): blockphys/%: | blockphys
	ln -sfn ../lua/blockphys/$* $@
blockphys:
	mkdir -p $@
FORCE:
endif

# Each object's header dependencies come from the compiler (-MMD -MP: the .d files).
$(BUILD)/obj/core/%.o: csrc/core/%.c | $(BUILD)/obj/core
	$(CC) $(CORE_CFLAGS) -c $< -o $@

$(BUILD)/obj/binding/%.o: csrc/binding/%.c | $(BUILD)/obj/binding
	$(CC) $(BIND_CFLAGS) -c $< -o $@

-include $(OBJ:.o=.d)

$(MODULE): $(OBJ) | $(BUILD)/blockphys
	$(CC) $(LIBFLAG) $(BASE_CFLAGS) -o $@ $(OBJ) -lm

$(BUILD)/obj $(BUILD)/obj/core $(BUILD)/obj/binding $(BUILD)/blockphys:
	mkdir -p $@

# spec/lua_oom_spec.lua's host: the interpreter's library with an allocator told to
# fail. Plain flags in every build (under the sanitizers the preloaded runtime serves
# it as it serves lua5.4).
LUA_LIB ?= $(if $(filter luajit%,$(LUA_NAME)),luajit-5.1,lua$(LUA_V))
OOM_HOST = $(BUILD)/lua_oom_host
$(OOM_HOST): spec/helpers/lua_oom_host.c | $(BUILD)/obj
	$(CC) -std=c11 $(WARN) -O1 -g -I$(LUA_INCDIR) $< -o $@ -l$(LUA_LIB)
test-tools: $(OOM_HOST)

# Install the Debian packages that are missing (as root), or say which ones. A package
# removed but not purged still has a status (config-files): only "installed" counts.
deps:
	@missing=""; for p in $(DEBS); do \
	  case "$$(dpkg-query -W -f='$${Status}' $$p 2>/dev/null)" in *" installed") ;; *) missing="$$missing $$p";; esac; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "missing Debian packages; run: sudo apt-get update && sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

# The suite under $(LUA); prints "N passed, N failed" (see spec/helpers/summary.lua).
# Sub-makes: the build must see headers that `deps` may have just installed.
test:
	$(NEED)"$(DEBS_TEST)"
	$(MAKE) --no-print-directory module test-tools
	$(BUSTED) --cpath='./$(BUILD)/?.so' -o spec/helpers/summary.lua spec

# The suite under every interpreter of LUAS that is installed (as root, `deps` first
# installs them all), each built in its own build/<interpreter>/; then one line per
# interpreter, "<interpreter>: N passed, N failed". Fails if any run failed.
test-all:
	@if [ "$$(id -u)" = 0 ]; then $(MAKE) --no-print-directory deps DEBS="$(DEBS_ALL)"; fi
	@status=0; for l in $(LUAS); do \
	  if ! command -v $$l >/dev/null; then echo "== $$l: not installed, skipped"; continue; fi; \
	  echo "== make test LUA=$$l"; mkdir -p build/$$l; \
	  if $(MAKE) --no-print-directory test LUA=$$l > build/$$l/test.log 2>&1; then \
	    tail -n 3 build/$$l/test.log; \
	  else status=1; sed -n '/^\(Failure\|Error\) -> /,$$p' build/$$l/test.log | head -n 200; \
	    tail -n 3 build/$$l/test.log; fi; \
	done; \
	echo "== test-all"; \
	for l in $(LUAS); do \
	  [ -f build/$$l/test.log ] && command -v $$l >/dev/null || continue; \
	  line=$$(grep -E '^[0-9]+ passed, [0-9]+ failed' build/$$l/test.log | tail -n 1); \
	  echo "$$l: $${line:-no summary (see build/$$l/test.log)}"; \
	done; \
	exit $$status

# The paths of a checkout for $(LUA): the Lua layer, then the module's build.
RUN_PATHS = package.path="./lua/?.lua;./lua/?/init.lua;"..package.path; package.cpath="./$(BUILD)/?.so;"..package.cpath

demo:
	$(NEED)"$(DEBS_BUILD)"
	$(MAKE) --no-print-directory module
	$(LUA) -e '$(RUN_PATHS)' examples/walkthrough.lua

# An interactive $(LUA) with blockphys on the paths (for the snippets of the README and
# docs/).
repl:
	$(NEED)"$(DEBS_BUILD)"
	$(MAKE) --no-print-directory module
	$(LUA) -i -e '$(RUN_PATHS)'

# The LÖVE demo (examples/love/; LÖVE runs LuaJIT, so it takes the LuaJIT build of the
# module, build/luajit/). love-smoke is its scripted check in a real LÖVE, under Xvfb
# with Mesa's software renderer: about 15 s; prints one line, fails on any failure.
.PHONY: love love-smoke
DEBS_LOVE = gcc libc6-dev $(call debs_lua,luajit) lua-zlib love
DEBS_ALL += love xvfb xauth libgl1-mesa-dri
love:
	$(NEED)"$(DEBS_LOVE)"
	$(MAKE) --no-print-directory module LUA=luajit
	love examples/love
love-smoke:
	$(NEED)"$(DEBS_LOVE) xvfb xauth libgl1-mesa-dri"
	$(MAKE) --no-print-directory module LUA=luajit
	LIBGL_ALWAYS_SOFTWARE=1 timeout 120 xvfb-run -a -s "-screen 0 1280x720x24" love examples/love --smoke

# The bench under $(LUA) (make bench LUA=luajit: the pure-Lua baseline then runs under
# LuaJIT too, in the same run), then bench/fields.lua under every interpreter installed:
# what one entity field read and write, e:set_input and world:positions cost in each
# (under LuaJIT with its FFI fast path and, "classic", without).
BENCH_RUN = -e 'package.path="./lua/?.lua;./lua/?/init.lua;./bench/?.lua;"..package.path; package.cpath="./build-bench/$(1)/?.so;"..package.cpath'
bench:
	$(NEED)"$(DEBS_BUILD) valgrind"
	$(MAKE) --no-print-directory module BUILD=build-bench/$(LUA_NAME) OPT="-O3 -DNDEBUG"
	$(LUA) $(call BENCH_RUN,$(LUA_NAME)) bench/bench.lua
	$(LUA) $(call BENCH_RUN,$(LUA_NAME)) bench/crowd.lua
	$(LUA) $(call BENCH_RUN,$(LUA_NAME)) bench/stream.lua
	$(LUA) $(call BENCH_RUN,$(LUA_NAME)) bench/game_loop.lua
	@echo "== bench/fields.lua: one field read, one field write, e:set_input, world:positions"
	@for l in $(LUAS); do \
	  command -v $$l >/dev/null || continue; \
	  $(MAKE) --no-print-directory -s module LUA=$$l BUILD=build-bench/$$l OPT="-O3 -DNDEBUG" || exit 1; \
	  if [ $$l = luajit ]; then printf 'classic '; BLOCKPHYS_NO_FFI=1 $$l $(call BENCH_RUN,'$$l') bench/fields.lua; fi; \
	  $$l $(call BENCH_RUN,'$$l') bench/fields.lua; \
	done

# The suite under AddressSanitizer + UBSan: the module is built with the
# sanitizers and the interpreter preloads the runtime, halting on any report.
# GCC's runtimes by default; with clang (as CI runs it):
#   make sanitize CC=clang SAN_BUILD=build-asan-clang SAN_LINK=-shared-libsan \
#     SAN_PRELOAD="$(clang -print-file-name=libclang_rt.asan-x86_64.so)"
SANITIZERS  = -fsanitize=address,undefined,float-cast-overflow
SAN_BUILD  ?= build-asan
SAN_LINK   ?=
SAN_PRELOAD ?= $$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so)
sanitize:
	$(NEED)"$(DEBS_TEST)"
	$(MAKE) --no-print-directory module test-tools BUILD=$(SAN_BUILD) OPT="-O1 -g -fno-omit-frame-pointer $(SANITIZERS) -fno-sanitize-recover=all" LIBFLAG="-shared $(SAN_LINK) $(SANITIZERS)"
	LD_PRELOAD="$(SAN_PRELOAD)" \
	ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	$(BUSTED) --cpath='./$(SAN_BUILD)/?.so' -o spec/helpers/summary.lua spec

# The suite under valgrind's memcheck (the module built -O1 -g): an invalid access, a
# read of uninitialised memory or any block left allocated at exit fails it. The
# interpreter frees everything when it closes, so "all" leak kinds can be errors;
# --keep-debuginfo names our functions in a leak's stack after Lua unloads the module;
# tools/valgrind.supp: the loader's records of the module, which stays loaded on
# purpose under Lua 5.1 to 5.3 and LuaJIT, and glibc's entry for the module's
# thread-local block (the nesting count of laux.c).
memcheck:
	$(NEED)"$(DEBS_TEST) valgrind"
	$(MAKE) --no-print-directory module test-tools BUILD=build-vg OPT="-O1 -g"
	valgrind --quiet --error-exitcode=99 --leak-check=full --show-leak-kinds=all --keep-debuginfo=yes \
	  --errors-for-leak-kinds=all --suppressions=tools/valgrind.supp \
	  $(BUSTED) --cpath='./build-vg/?.so' -o spec/helpers/summary.lua spec

# The attack suite (tools/fuzz/): hostile files in every format, misuse from hooks,
# filters and finalizers, exhaustion near the limits; each case bounded in time and
# memory. FUZZ=full takes minutes; FUZZ=short (CI) well under one.
FUZZ ?= full
.PHONY: fuzz
fuzz:
	$(NEED)"$(DEBS_TEST)"
	$(MAKE) --no-print-directory module
	LUA="$(LUA)" FUZZ_CPATH='./$(BUILD)/?.so' $(LUA) tools/fuzz/run.lua $(FUZZ)

lint:
	$(NEED)"lua-check"
	luacheck lua spec examples bench tools

# The layout's promises (docs/architecture.md): no circle among the C files (calls,
# from the objects) or the Lua modules, no Lua header in the core; the rockspec lists
# every C source and Lua module.
structure:
	$(NEED)"$(DEBS_BUILD)"
	$(MAKE) --no-print-directory module
	$(LUA) tools/check_structure.lua $(BUILD)/obj
	$(LUA) tools/check_requires.lua
	$(LUA) tools/check_rockspec.lua

# The figures of docs/ (docs/img/*.svg), drawn by gnuplot from what the library does:
# tools/plots/plots.lua runs the scenes into $(BUILD)/plots, render.sh draws them.
# plots-check redraws them into a temporary directory and fails if one differs from
# the committed copy (then run `make plots` and commit docs/img/).
.PHONY: plots plots-check
plots:
	$(NEED)"$(DEBS_BUILD) gnuplot-nox"
	$(MAKE) --no-print-directory module
	LUA="$(LUA)" BUILD="$(BUILD)" tools/plots/render.sh docs/img $(BUILD)/plots
plots-check:
	$(NEED)"$(DEBS_BUILD) gnuplot-nox"
	$(MAKE) --no-print-directory module
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	  LUA="$(LUA)" BUILD="$(BUILD)" tools/plots/render.sh --check "$$tmp"

# The HTML reference of the Lua API (config.ld) in build/docs/. LDoc exits 0 after
# warnings, so its output is kept and any line but its progress lines fails the
# target. Debian's LDoc runs under Lua 5.1 or 5.2 (lua-any picks one); lua-discount
# (Markdown with tables) exists for those two, so it runs under LDOC_LUA explicitly.
LDOC_LUA ?= lua5.1
docs:
	$(NEED)"lua-ldoc lua-discount $(LDOC_LUA)"
	rm -rf build/docs && mkdir -p build
	$(LDOC_LUA) /usr/bin/ldoc -d build/docs . > build/ldoc.log 2>&1 || { cat build/ldoc.log; exit 1; }
	@if grep -v -e '^reading configuration from ' -e '^output written to ' -e '^found master module' build/ldoc.log; then \
	  echo "make docs: LDoc printed the warnings above (the HTML is in build/docs/)"; exit 1; fi
	@echo "make docs: build/docs/index.html"

install:
	$(NEED)"$(DEBS_BUILD)"
	$(MAKE) --no-print-directory module
	mkdir -p $(INST_LIBDIR)/blockphys $(INST_LUADIR)/blockphys
	cp $(MODULE) $(INST_LIBDIR)/blockphys/core.so
	cp -R lua/blockphys/. $(INST_LUADIR)/blockphys/

clean:
	rm -rf build build-asan build-bench build-prof build-vg blockphys
