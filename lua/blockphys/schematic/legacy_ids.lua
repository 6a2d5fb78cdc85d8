--- Legacy (pre-1.13) numeric block ids and metadata as modern block state
-- strings, for MCEdit and Schematica `.schematic` files (`blockphys.schematic`
-- reads them through `schematic.legacy_state`).
--
-- Source: our own table, after the ids and metadata encodings that the game used
-- before 1.13 (the "flattening"); ids it does not list become
-- `"minecraft:unknown_<id>"`.
--
-- @module blockphys.schematic.legacy_ids

local compat = require "blockphys.compat"
local facings = require "blockphys.schematic.legacy_facing"

local format, floor = string.format, math.floor

local legacy_ids = {}

local legacy = {} -- id -> function(meta, ctx) returning a state string

local COLORS = {
  "white", "orange", "magenta", "light_blue", "yellow", "lime", "pink", "gray",
  "light_gray", "cyan", "purple", "blue", "brown", "green", "red", "black",
}
local WOODS = { "oak", "spruce", "birch", "jungle", "acacia", "dark_oak" }

local function mc(name) return "minecraft:" .. name end

-- Whether bit b (a power of two) of the metadata n is set: n & b ~= 0, in
-- arithmetic that Lua 5.1 parses (the metadata and its masks are small non-negative
-- integers, so n & (2^k - 1) is n % 2^k too).
local function has(n, b) return floor(n / b) % 2 == 1 end

-- Helpers that build the mapping functions.
local function plain(name) return function() return mc(name) end end
local function by_meta(names, mask, fallback)
  return function(meta)
    return mc(names[(meta % ((mask or 15) + 1)) + 1] or fallback or names[1])
  end
end
local function colored(suffix)
  return function(meta) return mc(COLORS[meta + 1] .. suffix) end
end

-- Facing tables of the legacy metadata encodings (legacy_connect reads them too).
local FACE_2345, FRONT = facings.FACE_2345, facings.FRONT
local STAIR_FACING, HORIZONTAL = facings.STAIRS, facings.HORIZONTAL
-- EnumFacing.getFront(v): the facing of index v mod 6.
local function front(v) return FRONT[v % 6] end
-- Horizontal blocks that read getFront(meta) turn up and down into north (BlockLadder,
-- BlockChest, BlockFurnace, BlockWallSign).
local function horizontal_front(meta)
  local f = front(meta)
  return (f == "up" or f == "down") and "north" or f
end

local function stairs(name)
  return function(meta)
    local half = has(meta, 4) and "top" or "bottom"
    return mc(format("%s[facing=%s,half=%s,shape=straight]", name, STAIR_FACING[meta % 4], half))
  end
end

local function slab(kinds)
  return function(meta)
    local kind = kinds[(meta % 8) + 1] or kinds[1]
    local t = has(meta, 8) and "top" or "bottom"
    return mc(format("%s_slab[type=%s]", kind, t))
  end
end
local function double_slab(kinds)
  return function(meta)
    return mc(format("%s_slab[type=double]", kinds[(meta % 8) + 1] or kinds[1]))
  end
end

local function facing_2345(name)
  return function(meta)
    return mc(format("%s[facing=%s]", name, horizontal_front(meta)))
  end
end

local function fence_gate(name)
  return function(meta)
    local open = has(meta, 4) and "true" or "false"
    return mc(format("%s[facing=%s,open=%s]", name, HORIZONTAL[meta % 4], open))
  end
end

local TORCH_WALL = { [1] = "east", [2] = "west", [3] = "south", [4] = "north" }
local function torch(floor, wall)
  return function(meta)
    local f = TORCH_WALL[meta % 8]
    if f then return mc(format("%s[facing=%s]", wall, f)) end
    return mc(floor)
  end
end

-- BlockPistonBase: facing getFront(meta & 7) for 0..5, extended when meta & 8; 6 and
-- 7 name no facing and no state in the game, and read as north here (our choice, the
-- default state's facing). Piston heads read their facing alike.
local function piston_facing(meta)
  return (meta % 8) <= 5 and front(meta % 8) or "north"
end
local function piston(name)
  return function(meta)
    return mc(format("%s[extended=%s,facing=%s]", name, tostring(has(meta, 8)), piston_facing(meta)))
  end
end

-- Doors keep facing/open in the lower half and hinge in the upper half;
-- each half reads the other through `ctx.meta_at(dy)`, nil where that cell is not
-- the same door. Without it a half keeps the defaults of BlockDoor
-- (facing north, closed, hinge left) for what the other half holds.
local DOOR_FACING = { [0] = "east", "south", "west", "north" }
local function door(name)
  return function(meta, ctx)
    local facing, open, hinge, half
    if has(meta, 8) then
      local lower = ctx.meta_at(-1)
      if lower and has(lower, 8) then lower = nil end -- another upper half: defaults
      facing = lower and DOOR_FACING[lower % 4] or "north"
      open = lower and has(lower, 4)
      hinge, half = has(meta, 1), "upper"
    else
      local upper = ctx.meta_at(1)
      if upper and not has(upper, 8) then upper = nil end -- another lower half: defaults
      facing, open = DOOR_FACING[meta % 4], has(meta, 4)
      hinge, half = upper and has(upper, 1), "lower"
    end
    return mc(format("%s[facing=%s,half=%s,hinge=%s,open=%s]",
      name, facing, half, hinge and "right" or "left", open and "true" or "false"))
  end
end

local TRAPDOOR_FACING = { [0] = "north", "south", "west", "east" }
local function trapdoor(name)
  return function(meta)
    return mc(format("%s[facing=%s,half=%s,open=%s]", name, TRAPDOOR_FACING[meta % 4],
      has(meta, 8) and "top" or "bottom", has(meta, 4) and "true" or "false"))
  end
end

local function wood_name(suffix)
  return function(meta) return mc((WOODS[(meta % 8) + 1] or "oak") .. suffix) end
end

local function log(woods)
  return function(meta)
    local wood = woods[(meta % 4) + 1] or woods[1]
    local axis_bits = meta % 16 - meta % 4
    if axis_bits == 12 then return mc(wood .. "_wood") end
    local axis = axis_bits == 4 and "x" or axis_bits == 8 and "z" or "y"
    return mc(format("%s_log[axis=%s]", wood, axis))
  end
end

local STONE_SLABS = {
  "smooth_stone", "sandstone", "petrified_oak", "cobblestone", "brick",
  "stone_brick", "nether_brick", "quartz",
}
local HOPPER_FACING = { [0] = "down", "down", "north", "south", "west", "east" }

legacy[0] = plain("air")
legacy[1] = by_meta({ "stone", "granite", "polished_granite", "diorite", "polished_diorite",
  "andesite", "polished_andesite" })
legacy[2] = plain("grass_block")
legacy[3] = by_meta({ "dirt", "coarse_dirt", "podzol" })
legacy[4] = plain("cobblestone")
legacy[5] = wood_name("_planks")
legacy[6] = wood_name("_sapling")
legacy[7] = plain("bedrock")
-- Flowing and still liquids keep their level in the metadata (0 source, 1..7
-- flowing, 8..15 falling): the water current reads it.
local function liquid(name)
  return function(meta) return meta == 0 and mc(name) or format("%s[level=%d]", mc(name), meta) end
end
legacy[8] = liquid("water")
legacy[9] = liquid("water")
legacy[10] = liquid("lava")
legacy[11] = liquid("lava")
legacy[12] = by_meta({ "sand", "red_sand" })
legacy[13] = plain("gravel")
legacy[14] = plain("gold_ore")
legacy[15] = plain("iron_ore")
legacy[16] = plain("coal_ore")
legacy[17] = log({ "oak", "spruce", "birch", "jungle" })
legacy[18] = by_meta({ "oak_leaves", "spruce_leaves", "birch_leaves", "jungle_leaves" }, 3)
legacy[19] = by_meta({ "sponge", "wet_sponge" }, 1)
legacy[20] = plain("glass")
legacy[21] = plain("lapis_ore")
legacy[22] = plain("lapis_block")
legacy[23] = plain("dispenser")
legacy[24] = by_meta({ "sandstone", "chiseled_sandstone", "cut_sandstone" })
legacy[25] = plain("note_block")
-- BlockBed: facing getHorizontal(meta & 3), head when meta & 8.
legacy[26] = function(meta)
  return mc(format("red_bed[facing=%s,part=%s]", HORIZONTAL[meta % 4],
    has(meta, 8) and "head" or "foot"))
end
legacy[27] = plain("powered_rail")
legacy[28] = plain("detector_rail")
legacy[29] = piston("sticky_piston")
legacy[30] = plain("cobweb")
legacy[31] = by_meta({ "dead_bush", "short_grass", "fern" })
legacy[32] = plain("dead_bush")
legacy[33] = piston("piston")
-- BlockPistonExtension: facing as the piston's, sticky when meta & 8.
legacy[34] = function(meta)
  return mc(format("piston_head[facing=%s,short=false,type=%s]", piston_facing(meta),
    has(meta, 8) and "sticky" or "normal"))
end
legacy[35] = colored("_wool")
legacy[36] = plain("moving_piston")
legacy[37] = plain("dandelion")
legacy[38] = by_meta({ "poppy", "blue_orchid", "allium", "azure_bluet", "red_tulip",
  "orange_tulip", "white_tulip", "pink_tulip", "oxeye_daisy" })
legacy[39] = plain("brown_mushroom")
legacy[40] = plain("red_mushroom")
legacy[41] = plain("gold_block")
legacy[42] = plain("iron_block")
legacy[43] = double_slab(STONE_SLABS)
legacy[44] = slab(STONE_SLABS)
legacy[45] = plain("bricks")
legacy[46] = plain("tnt")
legacy[47] = plain("bookshelf")
legacy[48] = plain("mossy_cobblestone")
legacy[49] = plain("obsidian")
legacy[50] = torch("torch", "wall_torch")
legacy[51] = plain("fire")
legacy[52] = plain("spawner")
legacy[53] = stairs("oak_stairs")
legacy[54] = facing_2345("chest")
legacy[55] = plain("redstone_wire")
legacy[56] = plain("diamond_ore")
legacy[57] = plain("diamond_block")
legacy[58] = plain("crafting_table")
legacy[59] = plain("wheat")
legacy[60] = plain("farmland")
legacy[61] = facing_2345("furnace")
legacy[62] = facing_2345("furnace")
legacy[63] = plain("oak_sign")
legacy[64] = door("oak_door")
legacy[65] = facing_2345("ladder")
legacy[66] = plain("rail")
legacy[67] = stairs("cobblestone_stairs")
legacy[68] = facing_2345("oak_wall_sign")
legacy[69] = plain("lever")
legacy[70] = plain("stone_pressure_plate")
legacy[71] = door("iron_door")
legacy[72] = plain("oak_pressure_plate")
legacy[73] = plain("redstone_ore")
legacy[74] = plain("redstone_ore")
legacy[75] = torch("redstone_torch", "redstone_wall_torch")
legacy[76] = torch("redstone_torch", "redstone_wall_torch")
legacy[77] = plain("stone_button")
legacy[78] = function(meta) return mc(format("snow[layers=%d]", (meta % 8) + 1)) end
legacy[79] = plain("ice")
legacy[80] = plain("snow_block")
legacy[81] = plain("cactus")
legacy[82] = plain("clay")
legacy[83] = plain("sugar_cane")
legacy[84] = plain("jukebox")
legacy[85] = plain("oak_fence")
legacy[86] = plain("carved_pumpkin")
legacy[87] = plain("netherrack")
legacy[88] = plain("soul_sand")
legacy[89] = plain("glowstone")
legacy[90] = plain("nether_portal")
legacy[91] = plain("jack_o_lantern")
legacy[92] = function(meta) return mc(format("cake[bites=%d]", math.min(meta, 6))) end
legacy[93] = plain("repeater")
legacy[94] = plain("repeater")
legacy[95] = colored("_stained_glass")
legacy[96] = trapdoor("oak_trapdoor")
legacy[97] = by_meta({ "infested_stone", "infested_cobblestone", "infested_stone_bricks",
  "infested_mossy_stone_bricks", "infested_cracked_stone_bricks", "infested_chiseled_stone_bricks" })
legacy[98] = by_meta({ "stone_bricks", "mossy_stone_bricks", "cracked_stone_bricks",
  "chiseled_stone_bricks" })
legacy[99] = plain("brown_mushroom_block")
legacy[100] = plain("red_mushroom_block")
legacy[101] = plain("iron_bars")
legacy[102] = plain("glass_pane")
legacy[103] = plain("melon")
legacy[104] = plain("pumpkin_stem")
legacy[105] = plain("melon_stem")
legacy[106] = plain("vine")
legacy[107] = fence_gate("oak_fence_gate")
legacy[108] = stairs("brick_stairs")
legacy[109] = stairs("stone_brick_stairs")
legacy[110] = plain("mycelium")
legacy[111] = plain("lily_pad")
legacy[112] = plain("nether_bricks")
legacy[113] = plain("nether_brick_fence")
legacy[114] = stairs("nether_brick_stairs")
legacy[115] = plain("nether_wart")
legacy[116] = plain("enchanting_table")
legacy[117] = plain("brewing_stand")
legacy[118] = plain("cauldron")
legacy[119] = plain("end_portal")
legacy[120] = function(meta)
  return mc(format("end_portal_frame[eye=%s]", has(meta, 4) and "true" or "false"))
end
legacy[121] = plain("end_stone")
legacy[122] = plain("dragon_egg")
legacy[123] = plain("redstone_lamp")
legacy[124] = plain("redstone_lamp")
legacy[125] = double_slab(WOODS)
legacy[126] = slab(WOODS)
-- BlockCocoa: facing getHorizontal(meta & 3), age meta >> 2.
legacy[127] = function(meta)
  return mc(format("cocoa[age=%d,facing=%s]", math.min(floor(meta / 4), 2), HORIZONTAL[meta % 4]))
end
legacy[128] = stairs("sandstone_stairs")
legacy[129] = plain("emerald_ore")
legacy[130] = facing_2345("ender_chest")
legacy[131] = plain("tripwire_hook")
legacy[132] = plain("tripwire")
legacy[133] = plain("emerald_block")
legacy[134] = stairs("spruce_stairs")
legacy[135] = stairs("birch_stairs")
legacy[136] = stairs("jungle_stairs")
legacy[137] = plain("command_block")
legacy[138] = plain("beacon")
-- byMetadata: a variant past the table is the default (BlockWall, BlockQuartz)
legacy[139] = by_meta({ "cobblestone_wall", "mossy_cobblestone_wall" })
legacy[140] = plain("flower_pot")
legacy[141] = plain("carrots")
legacy[142] = plain("potatoes")
legacy[143] = plain("oak_button")
legacy[144] = function(meta)
  local f = FACE_2345[meta % 8]
  if f then return mc(format("skeleton_wall_skull[facing=%s]", f)) end
  return mc("skeleton_skull")
end
legacy[145] = function(meta)
  local kind = ({ "anvil", "chipped_anvil", "damaged_anvil" })[(floor(meta / 4) % 4) + 1] or "anvil"
  return mc(format("%s[facing=%s]", kind, HORIZONTAL[meta % 4]))
end
legacy[146] = facing_2345("trapped_chest")
legacy[147] = plain("light_weighted_pressure_plate")
legacy[148] = plain("heavy_weighted_pressure_plate")
legacy[149] = plain("comparator")
legacy[150] = plain("comparator")
legacy[151] = plain("daylight_detector")
legacy[152] = plain("redstone_block")
legacy[153] = plain("nether_quartz_ore")
legacy[154] = function(meta) return mc(format("hopper[facing=%s]", HOPPER_FACING[meta % 8] or "down")) end
legacy[155] = function(meta)
  if meta == 0 then return mc("quartz_block") end
  if meta == 1 then return mc("chiseled_quartz_block") end
  if meta > 4 then return mc("quartz_block") end
  local axis = meta == 3 and "x" or meta == 4 and "z" or "y"
  return mc(format("quartz_pillar[axis=%s]", axis))
end
legacy[156] = stairs("quartz_stairs")
legacy[157] = plain("activator_rail")
legacy[158] = plain("dropper")
legacy[159] = colored("_terracotta")
legacy[160] = colored("_stained_glass_pane")
legacy[161] = by_meta({ "acacia_leaves", "dark_oak_leaves" }, 1)
legacy[162] = log({ "acacia", "dark_oak" })
legacy[163] = stairs("acacia_stairs")
legacy[164] = stairs("dark_oak_stairs")
legacy[165] = plain("slime_block")
legacy[166] = plain("barrier")
legacy[167] = trapdoor("iron_trapdoor")
legacy[168] = by_meta({ "prismarine", "prismarine_bricks", "dark_prismarine" })
legacy[169] = plain("sea_lantern")
legacy[170] = plain("hay_block")
legacy[171] = colored("_carpet")
legacy[172] = plain("terracotta")
legacy[173] = plain("coal_block")
legacy[174] = plain("packed_ice")
legacy[175] = by_meta({ "sunflower", "lilac", "tall_grass", "large_fern", "rose_bush", "peony" },
  7, "tall_grass")
legacy[176] = plain("white_banner")
legacy[177] = plain("white_wall_banner")
legacy[178] = plain("daylight_detector")
legacy[179] = by_meta({ "red_sandstone", "chiseled_red_sandstone", "cut_red_sandstone" })
legacy[180] = stairs("red_sandstone_stairs")
legacy[181] = double_slab({ "red_sandstone" })
legacy[182] = slab({ "red_sandstone" })
for i, wood in ipairs({ "spruce", "birch", "jungle", "dark_oak", "acacia" }) do
  legacy[182 + i] = fence_gate(wood .. "_fence_gate")
  legacy[187 + i] = plain(wood .. "_fence")
end
for i, wood in ipairs({ "spruce", "birch", "jungle", "acacia", "dark_oak" }) do
  legacy[192 + i] = door(wood .. "_door")
end
legacy[198] = function(meta) return mc(format("end_rod[facing=%s]", front(meta))) end
legacy[199] = plain("chorus_plant")
legacy[200] = plain("chorus_flower")
legacy[201] = plain("purpur_block")
legacy[202] = plain("purpur_pillar")
legacy[203] = stairs("purpur_stairs")
legacy[204] = double_slab({ "purpur" })
legacy[205] = slab({ "purpur" })
legacy[206] = plain("end_stone_bricks")
legacy[207] = plain("beetroots")
legacy[208] = plain("dirt_path")
legacy[209] = plain("end_gateway")
legacy[210] = plain("repeating_command_block")
legacy[211] = plain("chain_command_block")
legacy[212] = plain("frosted_ice")
legacy[213] = plain("magma_block")
legacy[214] = plain("nether_wart_block")
legacy[215] = plain("red_nether_bricks")
legacy[216] = plain("bone_block")
legacy[217] = plain("structure_void")
legacy[218] = plain("observer")
for i, color in ipairs(COLORS) do
  legacy[218 + i] = plain(color .. "_shulker_box")
  legacy[234 + i] = plain(color .. "_glazed_terracotta")
end
legacy[251] = colored("_concrete")
legacy[252] = colored("_concrete_powder")
legacy[255] = plain("structure_block")

-- Errors name legacy_state and point at its caller (level 3: past this helper
-- and legacy_ids.state).
local function arg_error(n, msg)
  error(format("bad argument #%d to 'legacy_state' (%s)", n, msg), 3)
end

local function describe(v) return type(v) == "number" and tostring(v) or type(v) end

local function is_nibble(v) return compat.is_integer(v) and v >= 0 and v <= 15 end

--- Modern block state string for a legacy (pre-1.13) numeric id and
-- metadata, as used by MCEdit schematics. Unknown ids give
-- `"minecraft:unknown_<id>"`. Source: our own table (see the module).
-- @tparam integer id block id, 0..4095 (12 bits: Blocks plus AddBlocks)
-- @tparam integer meta metadata, 0..15
-- @tparam[opt] function meta_at `meta_at(dy)` returns the metadata (nil or an
--   integer 0..15) of the cell `dy` blocks above (dy = 1 or -1: doors need
--   the other half); nil when outside or when that cell is not the same block
-- @treturn string
-- @raise "bad argument #n to 'legacy_state' (...)": an id that is not an
--   integer 0..4095, a meta that is not an integer 0..15, a meta_at that is
--   not a function or nil, or a meta_at result that is not nil or 0..15.
function legacy_ids.state(id, meta, meta_at)
  if not compat.is_integer(id) or id < 0 or id > 4095 then
    arg_error(1, "id must be an integer 0..4095, got " .. describe(id))
  end
  if not is_nibble(meta) then
    arg_error(2, "meta must be an integer 0..15, got " .. describe(meta))
  end
  if meta_at ~= nil and type(meta_at) ~= "function" then
    arg_error(3, "meta_at must be a function or nil, got " .. type(meta_at))
  end
  local f = legacy[id]
  if not f then return mc("unknown_" .. id) end
  -- A bad meta_at result is noted and raised here, where the level is known.
  local bad
  local ctx = { meta_at = function(dy)
    local v = meta_at and meta_at(dy)
    if v == nil or is_nibble(v) then return v end
    bad = bad or format("meta_at(%d) must return nil or an integer 0..15, got %s", dy, describe(v))
    return 0
  end }
  local state = f(meta, ctx)
  if bad then arg_error(3, bad) end
  return state
end

return legacy_ids
