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
DEBS_TEST   = $(DEBS_BUILD) lua-busted lua-zlib libcmocka-dev
DEBS_ALL    = gcc libc6-dev $(foreach l,$(LUAS),$(call debs_lua,$(l))) lua-busted lua-zlib libcmocka-dev \
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

# tools/module.map: the module exports luaopen_blockphys_core alone (the core's public
# functions have default visibility for libblockphys; see blockphys.h). GNU ld and
# lld take it; elsewhere pass MODULE_LDFLAGS= (empty).
MODULE_LDFLAGS ?= -Wl,--version-script=tools/module.map
$(MODULE): $(OBJ) tools/module.map | $(BUILD)/blockphys
	$(CC) $(LIBFLAG) $(BASE_CFLAGS) -o $@ $(OBJ) -lm $(MODULE_LDFLAGS)

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
	$(call run_ctests,$(BUILD),)
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

# The walkthrough's summary; VERBOSE=1 also prints its per-tick tables.
demo:
	$(NEED)"$(DEBS_BUILD)"
	$(MAKE) --no-print-directory module
	$(LUA) -e '$(RUN_PATHS)' examples/walkthrough.lua $(if $(VERBOSE),--verbose)

# An interactive $(LUA) with blockphys on the paths and already loaded as the global
# `bp` (for the snippets of the README and docs/: `w = bp.World()` works at once).
repl:
	$(NEED)"$(DEBS_BUILD)"
	$(MAKE) --no-print-directory module
	$(LUA) -i -e '$(RUN_PATHS); bp = require "blockphys"; print(bp._VERSION .. " loaded as bp")'

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
	$(LUA) $(call BENCH_RUN,$(LUA_NAME)) bench/sleep.lua
	$(LUA) $(call BENCH_RUN,$(LUA_NAME)) bench/stream.lua
	$(LUA) $(call BENCH_RUN,$(LUA_NAME)) bench/game_loop.lua
	$(LUA) $(call BENCH_RUN,$(LUA_NAME)) bench/solid_pile.lua
	$(LUA) $(call BENCH_RUN,$(LUA_NAME)) bench/triggers.lua
	$(LUA) $(call BENCH_RUN,$(LUA_NAME)) bench/snapshot.lua
	@echo "== bench/fields.lua: one field read, one field write, e:set_input, world:positions"
	@for l in $(LUAS); do \
	  command -v $$l >/dev/null || continue; \
	  $(MAKE) --no-print-directory -s module LUA=$$l BUILD=build-bench/$$l OPT="-O3 -DNDEBUG" || exit 1; \
	  if [ $$l = luajit ]; then printf 'classic '; BLOCKPHYS_NO_FFI=1 $$l $(call BENCH_RUN,'$$l') bench/fields.lua; fi; \
	  $$l $(call BENCH_RUN,'$$l') bench/fields.lua; \
	done

# The suite under AddressSanitizer + UBSan: the module is built with the
# sanitizers and the interpreter preloads the runtime, halting on any report. Every
# world loads ahead as big crowds do (spec/helpers/look_ahead.lua).
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
	$(call run_ctests,$(SAN_BUILD),LD_PRELOAD="$(SAN_PRELOAD)" ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1)
	LD_PRELOAD="$(SAN_PRELOAD)" \
	ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	$(BUSTED) --cpath='./$(SAN_BUILD)/?.so' --helper=spec/helpers/look_ahead.lua -o spec/helpers/summary.lua spec

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
# memory. FUZZ=full takes minutes; FUZZ=short (CI) well under one. FUZZ_GROUPS="round2"
# runs only the groups named (tools/fuzz/run.lua).
FUZZ ?= full
.PHONY: fuzz
fuzz:
	$(NEED)"$(DEBS_TEST)"
	$(MAKE) --no-print-directory module
	LUA="$(LUA)" FUZZ_GROUPS="$(FUZZ_GROUPS)" FUZZ_CPATH='./$(BUILD)/?.so' $(LUA) tools/fuzz/run.lua $(FUZZ)

lint:
	$(NEED)"lua-check"
	luacheck lua spec examples bench tools

# The layout's promises (docs/architecture.md): no circle among the C files (calls,
# from the objects) or the Lua modules, no Lua header in the core; the rockspec lists
# every C source and Lua module.
structure:
	$(NEED)"$(DEBS_BUILD)"
	$(MAKE) --no-print-directory module lib-files
	$(LUA) tools/check_structure.lua $(BUILD)/obj $(LIB_SO)
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
# The binding's comments are first sorted into one file per public type
# (tools/ldoc_split.lua: World, Entity, Collider, RulesView and blockphys.core pages),
# which config.ld reads from build/ldoc-src. The HTML must show no tag as text (a
# literal "@tparam" is a comment LDoc did not parse) and World:fill's whole signature.
docs:
	$(NEED)"lua-ldoc lua-discount $(LDOC_LUA)"
	rm -rf build/docs build/ldoc-src && mkdir -p build/ldoc-src
	$(LDOC_LUA) tools/ldoc_split.lua build/ldoc-src csrc/binding/*.c
	$(LDOC_LUA) /usr/bin/ldoc -d build/docs . > build/ldoc.log 2>&1 || { cat build/ldoc.log; exit 1; }
	@if grep -v -e '^reading configuration from ' -e '^output written to ' -e '^found master module' build/ldoc.log; then \
	  echo "make docs: LDoc printed the warnings above (the HTML is in build/docs/)"; exit 1; fi
	@if grep -rn -E '@(tparam|treturn|param|return|raise|function|module|classmod)\b' build/docs --include=*.html; then \
	  echo "make docs: tags shown as text in the HTML above"; exit 1; fi
	@for p in World Entity Collider RulesView; do [ -f build/docs/classes/$$p.html ] || \
	  { echo "make docs: no page for $$p"; exit 1; }; done
	@grep -q 'World:fill (x1, y1, z1, x2, y2, z2, block)' build/docs/classes/World.html || \
	  { echo "make docs: World:fill's signature is cut short"; exit 1; }
	@echo "make docs: build/docs/index.html"

install:
	$(NEED)"$(DEBS_BUILD)"
	$(MAKE) --no-print-directory module
	mkdir -p $(INST_LIBDIR)/blockphys $(INST_LUADIR)/blockphys
	cp $(MODULE) $(INST_LIBDIR)/blockphys/core.so
	cp -R lua/blockphys/. $(INST_LUADIR)/blockphys/

# --- the C library (docs/c-api.md) ---------------------------------------------------
# `make lib`: libblockphys from the core's objects alone (the ones the module links; no
# Lua), as a static archive and a shared library whose soname carries the major
# version, and libblockphys-lua (docs/embedding.md): the binding's objects for $(LUA),
# the Lua module built in, with the bridge of <blockphys/lua.h>, linked against
# libblockphys. `make install-lib PREFIX=...` installs both, the headers in
# include/blockphys/, blockphys.pc and blockphys-lua.pc in lib/pkgconfig/, and the
# Lua layer in share/lua/$(LUA_V)/ (which bp_lua_preload puts on package.path:
# the PREFIX is built into one object, lluadir.o, rebuilt when PREFIX changes).
# The headers are also staged in $(BUILD)/include/blockphys/, as installed, for the
# checkout's own C programs (the cmocka suite, examples/c_host).
PREFIX     ?= /usr/local
LIB_VERSION = $(shell sed -n 's/^\#define BP_VERSION_STRING "\(.*\)"/\1/p' csrc/core/include/blockphys.h)
LIB_MAJOR   = $(firstword $(subst ., ,$(LIB_VERSION)))
LIBB        = $(BUILD)/lib
LIB_A       = $(LIBB)/libblockphys.a
LIB_SO      = $(LIBB)/libblockphys.so.$(LIB_VERSION)
LUALIB_A    = $(LIBB)/libblockphys-lua.a
LUALIB_SO   = $(LIBB)/libblockphys-lua.so.$(LIB_VERSION)
CORE_OBJ    = $(CORE_SRC:csrc/%.c=$(BUILD)/obj/%.o)
BIND_OBJ    = $(BIND_SRC:csrc/%.c=$(BUILD)/obj/%.o)
# The binding's objects for libblockphys-lua: lluadir.o in its PREFIX's version.
LUALIB_OBJ  = $(filter-out %/lluadir.o,$(BIND_OBJ)) $(LIBB)/lluadir.o
LUA_PC     ?= $(if $(filter luajit%,$(LUA_NAME)),luajit,lua$(LUA_V))
# The public headers: blockphys.h and what it includes. The others of csrc/core/include
# (bp_internal.h and the layouts: bp_world.h, bp_entity.h, bp_events.h, bp_sensor.h,
# bp_broadphase.h) are internal and never installed or staged.
PUB_HEADERS = $(addprefix csrc/core/include/,blockphys.h bp_aabb.h bp_base.h bp_rules.h bp_types.h)
STAGE_INC   = $(BUILD)/include/blockphys
STAGED      = $(PUB_HEADERS:csrc/core/include/%=$(STAGE_INC)/%) $(STAGE_INC)/lua.h
.PHONY: lib lib-files install-lib headers

lib:
	$(NEED)"$(DEBS_BUILD)"
	@$(MAKE) --no-print-directory lib-files

lib-files: $(LIB_A) $(LIB_SO) $(LUALIB_A) $(LUALIB_SO) headers
headers: $(STAGED)

$(LIB_A): $(CORE_OBJ) | $(LIBB)
	rm -f $@ && ar rcs $@ $(CORE_OBJ)
$(LIB_SO): $(CORE_OBJ) | $(LIBB)
	$(CC) -shared $(BASE_CFLAGS) -Wl,-soname,libblockphys.so.$(LIB_MAJOR) -o $@ $(CORE_OBJ) -lm
	ln -sf libblockphys.so.$(LIB_VERSION) $(LIBB)/libblockphys.so.$(LIB_MAJOR)
	ln -sf libblockphys.so.$(LIB_MAJOR) $(LIBB)/libblockphys.so
$(LUALIB_A): $(LUALIB_OBJ) | $(LIBB)
	rm -f $@ && ar rcs $@ $(LUALIB_OBJ)
# The binding calls the core's internal functions, which libblockphys does not export:
# libblockphys-lua links its own copy of the core from the archive, with the archive's
# symbols kept local (--exclude-libs), so that it exports only the bridge and
# luaopen_blockphys_core. The world a host hands over has the same layout (same version).
$(LUALIB_SO): $(LUALIB_OBJ) $(LIB_A) $(LIB_SO) | $(LIBB)
	$(CC) -shared $(BASE_CFLAGS) -Wl,-soname,libblockphys-lua.so.$(LIB_MAJOR) -o $@ \
	  $(LUALIB_OBJ) $(LIB_A) -Wl,--exclude-libs,libblockphys.a -lm
	ln -sf libblockphys-lua.so.$(LIB_VERSION) $(LIBB)/libblockphys-lua.so.$(LIB_MAJOR)
	ln -sf libblockphys-lua.so.$(LIB_MAJOR) $(LIBB)/libblockphys-lua.so

# The installed Lua directory, built into lluadir.o: the stamp changes with PREFIX.
$(LIBB)/prefix.stamp: FORCE_STAMP | $(LIBB)
	@echo '$(PREFIX)/share/lua/$(LUA_V)' | cmp -s - $@ || echo '$(PREFIX)/share/lua/$(LUA_V)' > $@
$(LIBB)/lluadir.o: csrc/binding/lluadir.c $(LIBB)/prefix.stamp
	$(CC) $(BIND_CFLAGS) -DBP_LUA_LUADIR='"$(PREFIX)/share/lua/$(LUA_V)"' -c $< -o $@
.PHONY: FORCE_STAMP
FORCE_STAMP:

$(STAGE_INC)/%.h: csrc/core/include/%.h | $(STAGE_INC)
	cp $< $@
$(STAGE_INC)/lua.h: csrc/binding/bp_lua.h | $(STAGE_INC)
	cp $< $@
$(LIBB) $(STAGE_INC):
	mkdir -p $@

install-lib:
	$(NEED)"$(DEBS_BUILD)"
	@$(MAKE) --no-print-directory lib-files
	mkdir -p $(PREFIX)/lib/pkgconfig $(PREFIX)/include/blockphys $(PREFIX)/share/lua/$(LUA_V)/blockphys
	cp -P $(LIBB)/libblockphys*.a $(LIBB)/libblockphys*.so* $(PREFIX)/lib/
	cp $(STAGED) $(PREFIX)/include/blockphys/
	cp -R lua/blockphys/. $(PREFIX)/share/lua/$(LUA_V)/blockphys/
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' '' \
	  'Name: blockphys' 'Description: entity movement and collision for block worlds (C core)' \
	  'Version: $(LIB_VERSION)' 'Libs: -L$${libdir} -Wl,-rpath,$${libdir} -lblockphys' \
	  'Libs.private: -lm' 'Cflags: -I$${includedir}' > $(PREFIX)/lib/pkgconfig/blockphys.pc
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' \
	  'luadir=$${prefix}/share/lua/$(LUA_V)' '' \
	  'Name: blockphys-lua' 'Description: blockphys as a Lua module inside a C host, and the bridge of <blockphys/lua.h>' \
	  'Version: $(LIB_VERSION)' 'Requires: blockphys $(LUA_PC)' \
	  'Libs: -L$${libdir} -Wl,-rpath,$${libdir} -lblockphys-lua' 'Cflags: -I$${includedir}' \
	  > $(PREFIX)/lib/pkgconfig/blockphys-lua.pc

# --- the C tests (tests/c, cmocka) and examples/c_host ---------------------------------
# Built by test-tools from the module's own objects against the staged headers, with
# $(OPT) and the link flags of the module's build (the sanitizers under make sanitize);
# `make ctest` runs them (make test and make sanitize do, before the busted suite).
# test_bridge and c_host embed $(LUA) (the bridge; spec/c_host_spec.lua runs c_host).
CTEST_DIR    = $(BUILD)/ctest
CTESTS       = $(CTEST_DIR)/test_api $(CTEST_DIR)/test_public $(CTEST_DIR)/test_threads \
               $(CTEST_DIR)/test_bridge
C_HOST       = $(BUILD)/c_host
CTEST_CFLAGS = -std=c11 $(WARN) -ffp-contract=off $(OPT) -I$(BUILD)/include -I$(LUA_INCDIR) \
               $(if $(COMPAT53_INCDIR),-I$(COMPAT53_INCDIR))
CTEST_LINK   = $(filter-out -shared,$(LIBFLAG))
DEBS_CTEST   = libcmocka-dev
.PHONY: ctest
test-tools: $(CTESTS) $(C_HOST)
$(CTEST_DIR)/test_api: tests/c/test_api.c $(CORE_OBJ) $(STAGED) | $(CTEST_DIR)
	@echo "cc -o $@"; $(CC) $(CTEST_CFLAGS) -Icsrc/core/include $< $(CORE_OBJ) -o $@ $(CTEST_LINK) -lcmocka -lm
$(CTEST_DIR)/test_public: tests/c/test_public.c $(CORE_OBJ) $(STAGED) | $(CTEST_DIR)
	@echo "cc -o $@"; $(CC) $(CTEST_CFLAGS) $< $(CORE_OBJ) -o $@ $(CTEST_LINK) -lcmocka -lm
$(CTEST_DIR)/test_threads: tests/c/test_threads.c $(CORE_OBJ) $(STAGED) | $(CTEST_DIR)
	@echo "cc -o $@"; $(CC) $(CTEST_CFLAGS) -pthread $< $(CORE_OBJ) -o $@ $(CTEST_LINK) -lcmocka -lm
$(CTEST_DIR)/test_bridge: tests/c/test_bridge.c $(CORE_OBJ) $(BIND_OBJ) $(STAGED) | $(CTEST_DIR)
	@echo "cc -o $@"; $(CC) $(CTEST_CFLAGS) $< $(CORE_OBJ) $(BIND_OBJ) -o $@ $(CTEST_LINK) -l$(LUA_LIB) -lcmocka -lm
$(C_HOST): examples/c_host/main.c $(CORE_OBJ) $(BIND_OBJ) $(STAGED)
	@echo "cc -o $@"; $(CC) $(CTEST_CFLAGS) $< $(CORE_OBJ) $(BIND_OBJ) -o $@ $(CTEST_LINK) -l$(LUA_LIB) -lm
$(CTEST_DIR):
	mkdir -p $@
# run_ctests(build directory, environment): each suite's log in its .log, its result
# line shown (the whole log on a failure), then "ctest: N suites passed".
run_ctests = @for t in $(addprefix $(1)/ctest/,test_api test_public test_threads test_bridge); do \
	  $(2) $$t > $$t.log 2>&1 || { cat $$t.log; echo "ctest: $$t failed"; exit 1; }; \
	  grep -E '^\[  PASSED  \]' $$t.log | sed "s|^|$$(basename $$t): |"; done; \
	  echo "ctest: 4 suites passed"
ctest:
	$(NEED)"$(DEBS_TEST)"
	$(MAKE) --no-print-directory module test-tools
	$(call run_ctests,$(BUILD),)

# install-check: what a user outside the checkout does (docs/c-api.md): install-lib
# into a temporary PREFIX, copy examples/c_host out, build it with pkg-config alone and
# run it against the installed files (no path into the checkout); its digest must equal
# examples/c_host/scene.lua's, run from the checkout under $(LUA). Then the 30-line
# host of docs/c-api.md (its first ```c block), built with `pkg-config blockphys`
# alone, must print what the same scene prints in Lua. About 10 s.
.PHONY: install-check
install-check:
	$(NEED)"$(DEBS_BUILD) pkg-config"
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	  $(MAKE) --no-print-directory -s install-lib PREFIX="$$tmp/prefix" > "$$tmp/install.log" 2>&1 || \
	    { cat "$$tmp/install.log"; exit 1; }; \
	  mkdir "$$tmp/host" && cp examples/c_host/main.c examples/c_host/rules.lua "$$tmp/host/" && \
	  export PKG_CONFIG_PATH="$$tmp/prefix/lib/pkgconfig" && \
	  flags=$$(pkg-config --cflags --libs blockphys-lua blockphys $(LUA_PC)) && \
	  (cd "$$tmp/host" && $(CC) -std=c11 -O2 -o c_host main.c $$flags) && \
	  got=$$(cd "$$tmp/host" && env -u LUA_PATH -u LUA_PATH_5_4 -u LUA_CPATH -u LUA_CPATH_5_4 ./c_host rules.lua 20) && \
	  want=$$($(LUA) -e '$(RUN_PATHS)' examples/c_host/scene.lua examples/c_host/rules.lua 20) && \
	  echo "installed c_host: $$got; scene.lua: $$want" && \
	  [ "$${got#c_host }" = "$${want#scene }" ] || { echo "install-check: the digests differ"; exit 1; }; \
	  mkdir "$$tmp/plain" && awk '/^```c$$/{on=1;next} /^```$$/{if(on)exit} on' docs/c-api.md > "$$tmp/plain/host.c" && \
	  (cd "$$tmp/plain" && $(CC) -std=c11 $(WARN) -O2 -o host host.c $$(pkg-config --cflags --libs blockphys)) && \
	  got=$$("$$tmp/plain/host") && \
	  want=$$($(LUA) -e '$(RUN_PATHS)' -e 'local bp = require "blockphys" local w = bp.World() \
	    w:define_block{ name = "stone" } w:fill(-16, -1, -16, 15, 0, 15, "stone") \
	    local e = w:spawn{ x = 0.5, y = 10, z = 0.5 } e.forward = 1 for _ = 1, 40 do w:step(0.05) end \
	    print(string.format("blockphys %s: %.17g %.17g %.17g", bp._VERSION:match("%S+$$"), e.x, e.y, e.z))') && \
	  echo "docs/c-api.md's host (pkg-config blockphys alone): $$got; Lua: $$want" && \
	  [ "$$got" = "$$want" ] || { echo "install-check: the C host and Lua differ"; exit 1; }
	@$(MAKE) --no-print-directory -s lib-files # lluadir.o back to this PREFIX

clean:
	rm -rf build build-asan build-bench build-prof build-vg blockphys
