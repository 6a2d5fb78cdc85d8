--- Connections of legacy fences, panes, iron bars, walls and chorus plants, and
-- the corner shapes of legacy stairs, for MCEdit `.schematic` files: before
-- 1.13 the game stored no connection properties (it derived them from the
-- neighbours when it drew or collided a block), so a legacy id alone gives an
-- isolated post that an entity walks around. This module derives `north`,
-- `east`, `south`, `west` (and a wall's `up`) from the four horizontal
-- neighbours, as today's game does when it places a block, and a chorus plant's
-- six joins from its six neighbours.
--
-- Source: our own, after the rules of the modern game's FenceBlock,
-- IronBarsBlock and WallBlock: a fence joins fences of its own kind (wooden
-- ones join each other, nether brick only nether brick), a fence gate whose
-- facing runs across the join, and a full face of a block; a pane or iron bars
-- join panes, bars, walls and full faces; a wall joins walls, panes, bars,
-- gates across the join and full faces. A full face is a side of a full cube
-- (and of soul sand and of snow 8 layers deep), or the back of a stair (both
-- backs of an inner corner: 1.12's BlockStairs.getBlockFaceShape). Leaves,
-- pumpkins, melons, barriers and shulker boxes are not joined even when full.
-- A wall shows its post unless it continues straight on exactly two opposite
-- sides (the game also looks at the block above; we do not). Stairs turn into
-- inner and outer corners after StairBlock.getStairsShape (1.12's
-- BlockStairs.getStairsShape is the same). A chest next to a chest of the same
-- block reaches their shared edge (1.12's BlockChest.getBoundingBox). A chorus
-- plant joins chorus plants and chorus flowers on all six sides and end stone
-- below (1.12's BlockChorusPlant.getActualState; ChorusPlantBlock today).
--
-- Cells are described by small integer codes, so that the loader can cache the
-- palette entry of each (id, metadata, code) and build each state string once.
-- @module blockphys.schematic.legacy_connect

local legacy_ids = require "blockphys.schematic.legacy_ids"
local facings = require "blockphys.schematic.legacy_facing"
local minecraft = require "blockphys.minecraft"

local legacy_connect = {}

local function set(list)
  local t = {}
  for _, v in ipairs(list) do t[v] = true end
  return t
end

-- Legacy id -> what kind of connecting block it is.
local KIND = { [85] = "wood_fence", [113] = "nether_fence", [101] = "pane",
               [102] = "pane", [160] = "pane", [139] = "wall" }
for id = 188, 192 do KIND[id] = "wood_fence" end

local GATES = set{ 107, 183, 184, 185, 186, 187 }
-- Full blocks that nothing joins (isExceptionForConnection): leaves, pumpkin,
-- jack o'lantern, melon, barrier, shulker boxes.
local EXCEPTIONS = set{ 18, 161, 86, 91, 103, 166 }
for id = 219, 234 do EXCEPTIONS[id] = true end
-- Full faces that are not full boxes: soul sand (88); snow (78) 8 layers deep.
local FULL_FACE = { [88] = function() return true end,
                    [78] = function(meta) return meta % 8 == 7 end }

-- Chests and trapped chests: the box of one next to another of the same block
-- reaches their shared edge (BlockChest.getBoundingBox tests north, south, west,
-- then east); the code is the index of that side in CHEST_SIDES, 0 for none.
local CHESTS = set{ 54, 146 }
local CHEST_SIDES = { "north", "south", "west", "east" }

-- Chorus plants (199) join chorus plants and chorus flowers (200) on every side,
-- and end stone (121) below. The bits of their code: east, north, south, west as
-- for fences, then up (bit 4) and down (bit 5).
local CHORUS_PLANT, CHORUS_FLOWER, END_STONE = 199, 200, 121
local CHORUS_SIDES = { "east", "north", "south", "west", "up", "down" }

-- Stairs: legacy ids, and their metadata's facing (meta & 3) and half (meta & 4).
local STAIRS = set{ 53, 67, 108, 109, 114, 128, 134, 135, 136, 156, 163, 164, 180, 203 }
local STAIR_FACING = facings.STAIRS
local SHAPES = { "straight", "inner_left", "inner_right", "outer_left", "outer_right" }

-- Directions in the order of the property names (the bits of a connection code),
-- with their cell offsets {dx, dz [, dy]} (up and down for chorus plants).
local SIDES = { "east", "north", "south", "west" }
local STEP = { north = { 0, -1 }, south = { 0, 1 }, west = { -1, 0 }, east = { 1, 0 },
               up = { 0, 0, 1 }, down = { 0, 0, -1 } }
local OPPOSITE = { north = "south", south = "north", west = "east", east = "west" }
local CLOCKWISE = { north = "east", east = "south", south = "west", west = "north" }
local COUNTER_CLOCKWISE = { north = "west", west = "south", south = "east", east = "north" }
local AXIS = { north = "z", south = "z", west = "x", east = "x" }
-- Legacy gate metadata & 3 -> its facing (getHorizontal: south, west, north, east).
local GATE_FACING = facings.HORIZONTAL

-- A neighbour function moved by one step toward dir (for a neighbour's own shape).
local function shifted(neighbour, dir)
  local sx, sz = STEP[dir][1], STEP[dir][2]
  return function(dx, dz) return neighbour(dx + sx, dz + sz) end
end

-- The facing and half of the stairs one step toward dir, or nil.
local function stair_at(neighbour, dir)
  local nid, nmeta = neighbour(STEP[dir][1], STEP[dir][2])
  if not (nid and STAIRS[nid]) then return nil end
  return STAIR_FACING[nmeta % 4], nmeta % 8 - nmeta % 4
end

-- StairBlock.getStairsShape for the stair of metadata meta: a stair of the same
-- half in front (toward its facing) turned across makes an outer corner, one
-- behind an inner corner, unless the stair on the side the corner turns toward
-- already faces the same way. Returns an index into SHAPES.
local function stair_shape(meta, neighbour)
  local facing, half = STAIR_FACING[meta % 4], meta % 8 - meta % 4
  local function can_take(dir)
    local f, h = stair_at(neighbour, dir)
    return f == nil or f ~= facing or h ~= half
  end
  local f, h = stair_at(neighbour, facing)
  if f and h == half and AXIS[f] ~= AXIS[facing] and can_take(OPPOSITE[f]) then
    return f == COUNTER_CLOCKWISE[facing] and 4 or 5
  end
  f, h = stair_at(neighbour, OPPOSITE[facing])
  if f and h == half and AXIS[f] ~= AXIS[facing] and can_take(f) then
    return f == COUNTER_CLOCKWISE[facing] and 2 or 3
  end
  return 1
end

-- Whether the stair of metadata meta (whose neighbours `neighbour` gives) shows a
-- full face toward `face` (BlockStairs.getBlockFaceShape, sides only).
local function stair_face_full(meta, neighbour, face)
  local facing = STAIR_FACING[meta % 4]
  local shape = SHAPES[stair_shape(meta, neighbour)]
  if shape == "straight" then return facing == face end
  if shape == "inner_right" then return facing == face or facing == COUNTER_CLOCKWISE[face] end
  if shape == "inner_left" then return facing == face or facing == CLOCKWISE[face] end
  return false -- outer corners have no full side
end

-- Whether a legacy id and metadata is a full unit cube (a full face on every
-- side), cached.
local cube_cache = {}
local function full_cube(id, meta)
  local key = id * 16 + meta
  local v = cube_cache[key]
  if v == nil then
    local def = minecraft.block_def(legacy_ids.state(id, meta))
    local b = def.boxes
    v = not def.liquid and b ~= nil and #b == 1
      and b[1][1] == 0 and b[1][2] == 0 and b[1][3] == 0
      and b[1][4] == 1 and b[1][5] == 1 and b[1][6] == 1
    cube_cache[key] = v
  end
  return v
end

-- Whether the neighbour toward `side` (legacy nid, nmeta) shows a full face back.
local function full_face(side, nid, nmeta, neighbour)
  if EXCEPTIONS[nid] then return false end
  if STAIRS[nid] then return stair_face_full(nmeta, shifted(neighbour, side), OPPOSITE[side]) end
  if FULL_FACE[nid] then return FULL_FACE[nid](nmeta) end
  return full_cube(nid, nmeta)
end

local function joins(kind, side, nid, nmeta, neighbour)
  local nkind = KIND[nid]
  if kind == "pane" then
    if nkind == "pane" or nkind == "wall" then return true end
  elseif kind == "wall" then
    if nkind == "wall" or nkind == "pane" then return true end
  elseif nkind == kind then -- a fence of the same kind
    return true
  end
  if kind ~= "pane" and GATES[nid] then -- a gate joins across its facing
    return AXIS[GATE_FACING[nmeta % 4]] ~= AXIS[side]
  end
  return nkind == nil and full_face(side, nid, nmeta, neighbour)
end

-- The side of a chest's partner (an index into CHEST_SIDES), or 0.
local function chest_side(id, neighbour)
  for k, side in ipairs(CHEST_SIDES) do
    if neighbour(STEP[side][1], STEP[side][2]) == id then return k end
  end
  return 0
end

-- A chest's state joined toward side CHEST_SIDES[code]: a modern double-chest half
-- of its facing when the partner is beside it (type=left joins toward the
-- clockwise side); otherwise (a partner in front or behind, which the modern
-- properties cannot say) a facing across the join, which only the shape reads.
local function chest_state(state, code)
  local side = CHEST_SIDES[code]
  if not side then return state end
  local facing = state:match("facing=(%a+)") or "north"
  local half = "left"
  if COUNTER_CLOCKWISE[facing] == side then
    half = "right"
  elseif CLOCKWISE[facing] ~= side then
    facing = COUNTER_CLOCKWISE[side]
  end
  return (state:gsub("%[.*$", "")) .. "[facing=" .. facing .. ",type=" .. half .. "]"
end

-- BIT[k] = 2^(k - 1), the bit of sides[k] in a code (arithmetic, not bitwise
-- operators: Lua 5.1 parses it).
local BIT = { 1, 2, 4, 8, 16, 32 }

-- The mask of the sides (bit k for sides[k + 1]) whose neighbour
-- `test(kind, side, nid, nmeta, neighbour)` joins; nothing joins outside the file.
local function side_mask(sides, kind, test, neighbour)
  local mask = 0
  for bit, side in ipairs(sides) do
    local step = STEP[side]
    local nid, nmeta = neighbour(step[1], step[2], step[3])
    if nid ~= nil and test(kind, side, nid, nmeta, neighbour) then
      mask = mask + BIT[bit] -- each bit once
    end
  end
  return mask
end

-- Whether a chorus plant joins the block nid on `side` (a side_mask test).
local function chorus_joins(_, side, nid)
  return nid == CHORUS_PLANT or nid == CHORUS_FLOWER or (side == "down" and nid == END_STONE)
end

-- A state with the joins of code (bit k for sides[k + 1]) as properties, in name
-- order as modern files write them; extra (optional) adds properties of its own
-- from the joins by side name.
local function joined_state(state, sides, code, extra)
  local parts, joined = {}, {}
  for bit, side in ipairs(sides) do
    joined[side] = math.floor(code / BIT[bit]) % 2 == 1
    parts[bit] = side .. "=" .. tostring(joined[side])
  end
  if extra then parts[#parts + 1] = extra(joined) end
  table.sort(parts)
  return state .. "[" .. table.concat(parts, ",") .. "]"
end

-- A wall's post: shown unless it runs straight on exactly two opposite sides.
local function wall_post(joined)
  local straight = (joined.north and joined.south and not joined.east and not joined.west)
    or (joined.east and joined.west and not joined.north and not joined.south)
  return "up=" .. tostring(not straight)
end

--- The code of a legacy cell whose state depends on its neighbours, or nil for
-- one whose state depends on its id and metadata alone. A fence, pane, bars or
-- wall gives a 4-bit mask of the sides it joins (bit 0 east, 1 north, 2 south,
-- 3 west); stairs give their shape (1 straight .. 5 outer_right); chests and
-- trapped chests the side of a partner of the same block (1 north, 2 south,
-- 3 west, 4 east; 0 none); a chorus plant a 6-bit mask (bits 0-3 as for fences,
-- 4 up, 5 down). Codes are below 64.
-- @tparam integer id legacy block id (0..4095)
-- @tparam integer meta its metadata, 0..15
-- @tparam function neighbour `neighbour(dx, dz [, dy])` returns the legacy id and
--   metadata of the cell (dx, dy, dz) away (|dx|, |dz| <= 2, |dy| <= 1; dy is 0
--   when absent), or nil outside the schematic (nothing joins there)
-- @treturn integer|nil
function legacy_connect.code(id, meta, neighbour)
  if STAIRS[id] then return stair_shape(meta, neighbour) end
  if id == CHORUS_PLANT then return side_mask(CHORUS_SIDES, nil, chorus_joins, neighbour) end
  if CHESTS[id] then return chest_side(id, neighbour) end
  local kind = KIND[id]
  if not kind then return nil end
  return side_mask(SIDES, kind, joins, neighbour)
end

--- The state of a legacy cell with its code applied.
-- @tparam integer id legacy block id, one `code` gave a code for
-- @tparam string state what `legacy_ids.state` gives for its id and metadata
-- @tparam integer code from `code`
-- @treturn string the state with its connections in name order (walls also
--   with `up`, chorus plants with `up` and `down`), or its stair shape
--   (`shape=inner_left` and so on)
function legacy_connect.apply(id, state, code)
  if STAIRS[id] then return (state:gsub("shape=straight", "shape=" .. SHAPES[code], 1)) end
  if id == CHORUS_PLANT then return joined_state(state, CHORUS_SIDES, code) end
  if CHESTS[id] then return chest_state(state, code) end
  return joined_state(state, SIDES, code, KIND[id] == "wall" and wall_post or nil)
end

return legacy_connect
