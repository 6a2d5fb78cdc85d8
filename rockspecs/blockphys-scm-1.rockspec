rockspec_format = "3.0"
package = "blockphys"
version = "scm-1"
source = {
  url = "git+file:///dev/null", -- built from a checkout with `luarocks make`
}
description = {
  summary = "Entity movement and collision for block (voxel) worlds",
  detailed = [[
    A C core with a Lua 5.4 face: worlds of blocks, entities and colliders, the
    per-axis resolver of Minecraft Beta 1.7.3 and the swept-AABB resolver of MC-CPP,
    entity pushing, tunable gameplay rules, schematic import and world queries.
  ]],
  license = "MIT",
}
dependencies = {
  "lua >= 5.4, < 5.5",
  -- lua-zlib (Debian: lua-zlib) is needed only by blockphys.schematic for gzip.
}
build = {
  type = "builtin",
  modules = {
    ["blockphys.core"] = {
      sources = {
        "csrc/core/aabb.c", "csrc/core/alloc.c", "csrc/core/beta173.c",
        "csrc/core/beta173_flow.c", "csrc/core/beta173_push_out.c", "csrc/core/broadphase.c",
        "csrc/core/chunk.c", "csrc/core/entity.c", "csrc/core/move_limits.c", "csrc/core/mccpp.c",
        "csrc/core/move_axis.c", "csrc/core/move_swept.c", "csrc/core/push.c",
        "csrc/core/query.c", "csrc/core/raycast.c", "csrc/core/rules.c", "csrc/core/solid.c",
        "csrc/core/step.c", "csrc/core/world.c",
        "csrc/binding/laux.c", "csrc/binding/lblockphys.c", "csrc/binding/lcollider.c",
        "csrc/binding/lentity.c", "csrc/binding/lfields.c", "csrc/binding/lhooks.c",
        "csrc/binding/lquery.c", "csrc/binding/lrules.c", "csrc/binding/lstep.c",
        "csrc/binding/ltesting.c", "csrc/binding/lworld.c",
      },
      incdirs = { "csrc/core", "csrc/core/include" },
      defines = {},
    },
    ["blockphys"] = "lua/blockphys/init.lua",
    ["blockphys.nbt"] = "lua/blockphys/nbt.lua",
    ["blockphys.schematic"] = "lua/blockphys/schematic.lua",
    ["blockphys.legacy_ids"] = "lua/blockphys/legacy_ids.lua",
    ["blockphys.legacy_connect"] = "lua/blockphys/legacy_connect.lua",
    ["blockphys.paste"] = "lua/blockphys/paste.lua",
    ["blockphys.cells"] = "lua/blockphys/cells.lua",
    ["blockphys.structure"] = "lua/blockphys/structure.lua",
    ["blockphys.litematic"] = "lua/blockphys/litematic.lua",
    ["blockphys.region_join"] = "lua/blockphys/region_join.lua",
    ["blockphys.minecraft"] = "lua/blockphys/minecraft.lua",
    ["blockphys.minecraft_beta173"] = "lua/blockphys/minecraft_beta173.lua",
  },
}
test_dependencies = { "busted" }
test = { type = "busted" }
