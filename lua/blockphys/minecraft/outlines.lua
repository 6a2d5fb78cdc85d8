--- Outline shapes of today's vanilla blocks that have no collision: the shape a
-- cursor selects (`World:define_block`'s `outline`, `World:raycast` with
-- `shape = "outline"`), for `blockphys.minecraft`. Blocks with collision boxes
-- select their boxes (the default), so only walk-through blocks are listed here:
-- flowers, grass and ferns, dead bushes, mushrooms, saplings, sugar cane, crops,
-- torches, rails, buttons, levers, pressure plates, redstone wire and signs.
--
-- Source: the outline (selection) shapes of today's vanilla block classes (FlowerBlock,
-- TallGrassBlock, SaplingBlock, MushroomBlock, SugarCaneBlock, CropBlock, TorchBlock,
-- WallTorchBlock, BaseRailBlock, ButtonBlock, LeverBlock, BasePressurePlateBlock,
-- RedStoneWireBlock, StandingSignBlock and WallSignBlock), from our knowledge of the
-- game's block models; our own transcription in sixteenths of a block, block-local,
-- written once for north and turned (`blockphys.minecraft.boxes`). The random offset
-- the game gives some plants is left out: every cell's shape is centred. Double
-- plants (tall grass, large ferns, sunflowers, lilacs, rose bushes, peonies) have no
-- shape of their own in the game: they select the whole cell, as any block without
-- one.
--
-- @module blockphys.minecraft.outlines
-- @local

local helpers = require "blockphys.minecraft.boxes"

local outlines = {}

local px, set, rotate = helpers.px, helpers.set, helpers.rotate
local FULL, FACING4, BOOL = helpers.FULL, helpers.FACING4, helpers.BOOL

local FLOWER = { px(5, 0, 5, 11, 10, 11) }
local GRASS = { px(2, 0, 2, 14, 13, 14) }
local SAPLING = { px(2, 0, 2, 14, 12, 14) }
local MUSHROOM = { px(5, 0, 5, 11, 6, 11) }
local TORCH = { px(6, 0, 6, 10, 10, 10) }
local WALL_TORCH_NORTH = { px(5.5, 3, 11, 10.5, 13, 16) }

-- Fixed outlines by exact name.
local FIXED = {
  grass = GRASS, short_grass = GRASS, fern = GRASS, dead_bush = GRASS,
  tall_grass = { FULL }, large_fern = { FULL }, sunflower = { FULL }, lilac = { FULL },
  rose_bush = { FULL }, peony = { FULL },
  brown_mushroom = MUSHROOM, red_mushroom = MUSHROOM,
  sugar_cane = { px(2, 0, 2, 14, 16, 14) },
  torch = TORCH, soul_torch = TORCH, redstone_torch = TORCH, copper_torch = TORCH,
}
for _, name in ipairs({ "dandelion", "poppy", "blue_orchid", "allium", "azure_bluet",
  "oxeye_daisy", "cornflower", "lily_of_the_valley", "wither_rose", "torchflower",
  "open_eyeblossom", "closed_eyeblossom" }) do
  FIXED[name] = FLOWER
end

local WALL_TORCHES = set("wall_torch", "soul_wall_torch", "redstone_wall_torch", "copper_wall_torch")

-- Crops: the height of each age in sixteenths.
local CROPS = {
  wheat = { 2, 4, 6, 8, 10, 12, 14, 16 },
  carrots = { 2, 3, 4, 5, 6, 7, 8, 9 },
  potatoes = { 2, 3, 4, 5, 6, 7, 8, 9 },
  beetroots = { 2, 4, 6, 8 },
}

local RAILS = set("rail", "powered_rail", "detector_rail", "activator_rail")
local RAIL_SHAPES = set("north_south", "east_west", "ascending_east", "ascending_west",
  "ascending_north", "ascending_south", "south_east", "south_west", "north_west", "north_east")

local FACES = set("floor", "wall", "ceiling")
local WIRE_SIDES = set("none", "side", "up")

-- A property's value if `allowed` has it, else the default.
local function prop(props, key, allowed, default)
  local v = props[key]
  if v ~= nil and allowed[v] then return v end
  return default
end

-- An integer property in lo..hi written as the game writes it, else `default`.
local function int_prop(props, key, lo, hi, default)
  local v = props[key]
  for n = lo, hi do
    if v == tostring(n) then return n end
  end
  return default
end

-- Buttons (6 x 4 x 2 sixteenths, 1 pressed) and levers' bases (6 x 8 x 6 on a wall,
-- 6 x 6 x 8 on a floor or ceiling): a wall shape written for north (on the south wall),
-- turned; a floor one lies along the facing's axis, a ceiling one is the floor one
-- upside down.
local function attached(props, wall, floor_z)
  local face = prop(props, "face", FACES, "wall")
  local facing = prop(props, "facing", FACING4, "north")
  local b
  if face == "wall" then
    b = wall
  else
    b = floor_z
    if face == "ceiling" then b = { b[1], 1 - b[5], b[3], b[4], 1 - b[2], b[6] } end
  end
  -- floor_z lies along Z (facing north or south): an east or west one is turned
  return rotate({ b }, face == "wall" and facing or (facing == "east" or facing == "west") and "east" or "north"),
    { "face=" .. face, "facing=" .. facing }
end

local function button(props)
  local powered = prop(props, "powered", BOOL, "false")
  local t = powered == "true" and 1 or 2
  local boxes, parts = attached(props, px(5, 6, 16 - t, 11, 10, 16), px(5, 0, 6, 11, t, 10))
  parts[#parts + 1] = "powered=" .. powered
  return boxes, parts
end

local function lever(props)
  return attached(props, px(5, 4, 10, 11, 12, 16), px(5, 0, 4, 11, 6, 12))
end

-- Redstone wire: a dot, an arm along the floor to each side connected, and a strip up
-- the wall on each side connected upwards.
local function wire(props)
  local boxes, parts = { px(3, 0, 3, 13, 1, 13) }, {}
  local arms = {
    north = { px(3, 0, 0, 13, 1, 3), px(3, 0, 0, 13, 16, 1) },
    south = { px(3, 0, 13, 13, 1, 16), px(3, 0, 15, 13, 16, 16) },
    east = { px(13, 0, 3, 16, 1, 13), px(15, 0, 3, 16, 16, 13) },
    west = { px(0, 0, 3, 3, 1, 13), px(0, 0, 3, 1, 16, 13) },
  }
  for _, side in ipairs({ "east", "north", "south", "west" }) do
    local v = prop(props, side, WIRE_SIDES, "none")
    parts[#parts + 1] = side .. "=" .. v
    if v ~= "none" then boxes[#boxes + 1] = arms[side][1] end
    if v == "up" then boxes[#boxes + 1] = arms[side][2] end
  end
  return boxes, parts
end

local function ends_with(s, suffix)
  return s:sub(-#suffix) == suffix
end

--- The outline of a namespace-less vanilla name without collision boxes, and the
-- property parts (`"key=value"`) that select it, to be added to the definition's
-- name; nil for the names this table does not list (their outline is their
-- collision boxes). The boxes are shared: copy them before handing them out.
-- @tparam string base e.g. `"wall_torch"`
-- @tparam table props the state's properties (`blockphys.state.parse_state`)
function outlines.of(base, props)
  if FIXED[base] then return FIXED[base], {} end
  if WALL_TORCHES[base] then
    local facing = prop(props, "facing", FACING4, "north")
    return rotate(WALL_TORCH_NORTH, facing), { "facing=" .. facing }
  end
  if CROPS[base] then
    local heights = CROPS[base]
    local age = int_prop(props, "age", 0, #heights - 1, 0)
    return { px(0, 0, 0, 16, heights[age + 1], 16) }, { "age=" .. age }
  end
  if RAILS[base] then
    local shape = prop(props, "shape", RAIL_SHAPES, "north_south")
    return { px(0, 0, 0, 16, shape:sub(1, 10) == "ascending_" and 8 or 2, 16) }, { "shape=" .. shape }
  end
  if base == "redstone_wire" then return wire(props) end
  if base == "lever" then return lever(props) end
  if ends_with(base, "_hanging_sign") then return nil end
  if ends_with(base, "_wall_sign") then
    local facing = prop(props, "facing", FACING4, "north")
    return rotate({ px(0, 4.5, 14, 16, 12.5, 16) }, facing), { "facing=" .. facing }
  end
  if ends_with(base, "_sign") then return { px(4, 0, 4, 12, 16, 12) }, {} end
  if ends_with(base, "_button") then return button(props) end
  if ends_with(base, "_sapling") then return SAPLING, {} end
  if ends_with(base, "_tulip") then return FLOWER, {} end
  if ends_with(base, "weighted_pressure_plate") then
    local power = int_prop(props, "power", 0, 15, 0)
    return { px(1, 0, 1, 15, power > 0 and 0.5 or 1, 15) }, { "power=" .. power }
  end
  if ends_with(base, "_pressure_plate") then
    local powered = prop(props, "powered", BOOL, "false")
    return { px(1, 0, 1, 15, powered == "true" and 0.5 or 1, 15) }, { "powered=" .. powered }
  end
  return nil
end

-- Beta 1.7.3's block bounds, which are its outlines, where they differ from today's:
-- Java floats widened to double, each written with the expression the class computes
-- (f = 0.2F: 0.5F - f = 0.30000001192092896, and so on).
local F03, F07, F06 = 0.30000001192092896, 0.699999988079071, 0.6000000238418579 -- 0.5F -+ 0.2F, 0.2F * 3
local F01, F09, F08 = 0.09999999403953552, 0.8999999761581421, 0.800000011920929 -- 0.5F -+ 0.4F, 0.8F
local F02, F035, F065 = 0.20000000298023224, 0.3499999940395355, 0.6499999761581421 -- 0.2F, 0.5F -+ 0.15F
local F04 = 0.4000000059604645 -- 0.5F - 0.1F, 0.2F * 2
local BETA_PLANT = { { F01, 0, F01, F09, F08, F09 } } -- BlockSapling, BlockTallGrass, BlockDeadBush
local BETA_TORCH = { { F04, 0, F04, F06, F06, F06 } } -- BlockTorch on a floor: f = 0.1F, 0.6F high
-- BlockTorch on a wall, f = 0.15F (metadata 1..4: facing east, west, south, north)
local BETA_WALL_TORCH = {
  east = { { 0, F02, F035, F03, F08, F065 } },
  west = { { F07, F02, F035, 1, F08, F065 } },
  south = { { F035, F02, 0, F065, F08, F03 } },
  north = { { F035, F02, F07, F065, F08, 1 } },
}
local BETA_FIXED = {
  dandelion = { { F03, 0, F03, F07, F06, F07 } }, -- BlockFlower: f = 0.2F, f * 3 high
  poppy = { { F03, 0, F03, F07, F06, F07 } },
  brown_mushroom = { { F03, 0, F03, F07, F04, F07 } }, -- BlockMushroom: f * 2 high
  red_mushroom = { { F03, 0, F03, F07, F04, F07 } },
  oak_sapling = BETA_PLANT, spruce_sapling = BETA_PLANT, birch_sapling = BETA_PLANT,
  grass = BETA_PLANT, short_grass = BETA_PLANT, fern = BETA_PLANT, dead_bush = BETA_PLANT,
  sugar_cane = { { 0.125, 0, 0.125, 0.875, 1, 0.875 } }, -- BlockReed: f = 0.375F
  wheat = { { 0, 0, 0, 1, 0.25, 1 } }, -- BlockCrops: 0.25F at every age
  torch = BETA_TORCH, redstone_torch = BETA_TORCH,
  redstone_wire = { { 0, 0, 0, 1, 0.0625, 1 } }, -- BlockRedstoneWire: 0.0625F, any connections
}

--- Beta 1.7.3's outline of a namespace-less name where it differs from today's (the
-- plants, torches, rails, the stone button on a wall, levers on a wall or floor,
-- redstone wire, wheat), else nil. Source: the Beta 1.7.3 block classes' bounds
-- (BlockFlower, BlockMushroom, BlockSapling, BlockTallGrass, BlockDeadBush, BlockReed,
-- BlockCrops, BlockTorch, BlockRail, BlockButton, BlockLever, BlockRedstoneWire) of the
-- decompile docs/beta173.md names; our own transcription.
-- @tparam string base e.g. `"wall_torch"`
-- @tparam table props the state's properties
function outlines.beta173(base, props)
  if BETA_FIXED[base] then return BETA_FIXED[base] end
  if base == "wall_torch" or base == "redstone_wall_torch" then
    return BETA_WALL_TORCH[prop(props, "facing", FACING4, "north")]
  end
  if base == "rail" or base == "powered_rail" or base == "detector_rail" then
    -- BlockRail: 0.625F high when ascending, else 0.125F
    local shape = prop(props, "shape", RAIL_SHAPES, "north_south")
    return { { 0, 0, 0, 1, shape:sub(1, 10) == "ascending_" and 0.625 or 0.125, 1 } }
  end
  local face = prop(props, "face", FACES, "wall")
  local facing = prop(props, "facing", FACING4, "north")
  if base == "stone_button" and face == "wall" then
    -- BlockButton: 0.375 x 0.25, 0.125 thick (0.0625 pressed), on the south wall for north
    local t = prop(props, "powered", BOOL, "false") == "true" and 0.0625 or 0.125
    return rotate({ { 0.3125, 0.375, 1 - t, 0.6875, 0.625, 1 } }, facing)
  end
  if base == "lever" and face == "wall" then
    -- BlockLever on a wall: f = 0.1875F, 0.2F .. 0.8F high
    return rotate({ { 0.3125, F02, 0.625, 0.6875, F08, 1 } }, facing)
  end
  if base == "lever" and face == "floor" then
    return { { 0.25, 0, 0.25, 0.75, F06, 0.75 } } -- f = 0.25F, 0.6F high
  end
  return nil
end

return outlines
