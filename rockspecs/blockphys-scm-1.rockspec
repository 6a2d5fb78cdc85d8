rockspec_format = "3.0"
package = "blockphys"
version = "scm-1"
source = {
  url = "git+file:///dev/null", -- built from a checkout with `luarocks make`
}
description = {
  summary = "Entity movement and collision for block (voxel) worlds",
  detailed = [[
    A C core with a Lua face (Lua 5.1, 5.2, 5.3, 5.4 and LuaJIT 2.1, one source):
    worlds of blocks, entities and colliders, the per-axis resolver of Minecraft Beta
    1.7.3 and the swept-AABB resolver of MC-CPP, entity pushing, tunable gameplay
    rules, schematic import and world queries.
  ]],
  license = "MIT",
}
dependencies = {
  "lua >= 5.1, < 5.5",
  -- lua-zlib (Debian: lua-zlib) is needed only by blockphys.schematic for gzip.
}
build = {
  type = "builtin",
  modules = {
    ["blockphys.core"] = {
      sources = {
        "csrc/core/aabb.c", "csrc/core/alloc.c", "csrc/core/beta173.c",
        "csrc/core/beta173_flow.c", "csrc/core/beta173_push_out.c", "csrc/core/broadphase.c",
        "csrc/core/broadlist.c",
        "csrc/core/chunk.c", "csrc/core/depenetrate.c", "csrc/core/entity.c",
        "csrc/core/mccpp.c", "csrc/core/mccpp_exact.c", "csrc/core/mccpp_stages.c",
        "csrc/core/move_axis.c", "csrc/core/move_limits.c", "csrc/core/move_swept.c",
        "csrc/core/push.c", "csrc/core/query.c", "csrc/core/raycast.c", "csrc/core/rules.c",
        "csrc/core/sleep.c", "csrc/core/sleep_map.c", "csrc/core/solid.c", "csrc/core/step.c", "csrc/core/stream.c", "csrc/core/sweep.c",
        "csrc/core/version.c", "csrc/core/world.c",
        "csrc/core/contact.c", "csrc/core/events.c", "csrc/core/sensor.c",
        "csrc/core/codec.c", "csrc/core/snapshot.c", "csrc/core/snapcode.c", "csrc/core/export.c",
        "csrc/core/entcode.c", "csrc/core/snapimage.c",
        "csrc/core/carry.c",
        "csrc/core/api.c", "csrc/core/check.c",
        "csrc/binding/laux.c", "csrc/binding/lblockphys.c", "csrc/binding/lbridge.c",
        "csrc/binding/lcollider.c",
        "csrc/binding/lcompat.c", "csrc/binding/lentity.c", "csrc/binding/lffi.c",
        "csrc/binding/lfields.c", "csrc/binding/lhooks.c", "csrc/binding/lloop.c", "csrc/binding/lluadir.c",
        "csrc/binding/lquery.c", "csrc/binding/lrules.c", "csrc/binding/lstep.c",
        "csrc/binding/lstream.c",
        "csrc/binding/ltesting.c", "csrc/binding/lworld.c",
        "csrc/binding/levents.c", "csrc/binding/ltrigger.c", "csrc/binding/lsnapshot.c", "csrc/binding/lhandoff.c",
      },
      -- compat-5.3.h and .c for Lua 5.1, 5.2 and LuaJIT (csrc/binding/lcompat.h): Debian's
      -- lua-compat53-dev puts them in Lua 5.1's and 5.2's include directories, which
      -- the last entry names for LuaJIT's (/usr/include/luajit-2.1/../lua5.1); Lua 5.3
      -- and 5.4 need neither. Elsewhere, pass CFLAGS="-I<dir of compat-5.3.h>".
      incdirs = { "csrc/core", "csrc/core/include", "$(LUA_INCDIR)/../lua5.1" },
      defines = {},
    },
    ["blockphys"] = "lua/blockphys/init.lua",
    ["blockphys.compat"] = "lua/blockphys/compat.lua",
    ["blockphys.ffi"] = "lua/blockphys/ffi.lua",
    ["blockphys.minecraft"] = "lua/blockphys/minecraft/init.lua",
    ["blockphys.minecraft.beta173"] = "lua/blockphys/minecraft/beta173.lua",
    ["blockphys.minecraft.boxes"] = "lua/blockphys/minecraft/boxes.lua",
    ["blockphys.minecraft.families_building"] = "lua/blockphys/minecraft/families_building.lua",
    ["blockphys.minecraft.families_objects"] = "lua/blockphys/minecraft/families_objects.lua",
    ["blockphys.minecraft.materials"] = "lua/blockphys/minecraft/materials.lua",
    ["blockphys.minecraft.outlines"] = "lua/blockphys/minecraft/outlines.lua",
    ["blockphys.minecraft.shapes"] = "lua/blockphys/minecraft/shapes.lua",
    ["blockphys.minecraft.vanilla"] = "lua/blockphys/minecraft/vanilla.lua",
    ["blockphys.minecraft_beta173"] = "lua/blockphys/minecraft_beta173.lua",
    ["blockphys.nbt"] = "lua/blockphys/nbt/init.lua",
    ["blockphys.nbt.reader"] = "lua/blockphys/nbt/reader.lua",
    ["blockphys.options"] = "lua/blockphys/options.lua",
    ["blockphys.schematic"] = "lua/blockphys/schematic/init.lua",
    ["blockphys.schematic.cells"] = "lua/blockphys/schematic/cells.lua",
    ["blockphys.schematic.legacy_connect"] = "lua/blockphys/schematic/legacy_connect.lua",
    ["blockphys.schematic.legacy_facing"] = "lua/blockphys/schematic/legacy_facing.lua",
    ["blockphys.schematic.legacy_ids"] = "lua/blockphys/schematic/legacy_ids.lua",
    ["blockphys.schematic.litematic"] = "lua/blockphys/schematic/litematic.lua",
    ["blockphys.schematic.mcedit"] = "lua/blockphys/schematic/mcedit.lua",
    ["blockphys.schematic.object"] = "lua/blockphys/schematic/object.lua",
    ["blockphys.schematic.paste"] = "lua/blockphys/schematic/paste.lua",
    ["blockphys.schematic.paste_args"] = "lua/blockphys/schematic/paste_args.lua",
    ["blockphys.schematic.place"] = "lua/blockphys/schematic/place.lua",
    ["blockphys.schematic.region_join"] = "lua/blockphys/schematic/region_join.lua",
    ["blockphys.schematic.source"] = "lua/blockphys/schematic/source.lua",
    ["blockphys.schematic.sponge"] = "lua/blockphys/schematic/sponge.lua",
    ["blockphys.schematic.structure"] = "lua/blockphys/schematic/structure.lua",
    ["blockphys.state"] = "lua/blockphys/state.lua",
  },
}
test_dependencies = { "busted" }
test = { type = "busted" }
