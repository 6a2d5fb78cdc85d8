--- Connections of legacy fences, panes, iron bars and walls, and the corner
-- shapes of legacy stairs, for MCEdit
-- `.schematic` files: before 1.13 the game stored no connection properties
-- (it derived them from the neighbours when it drew or collided a block), so a
-- legacy id alone gives an isolated post that an entity walks around. This
-- module derives `north`, `east`, `south`, `west` (and a wall's `up`) from the
-- four horizontal neighbours, as today's game does when it places a block.
--
-- Source: our own, after the rules of the modern game's FenceBlock,
-- IronBarsBlock and WallBlock: a fence joins fences of its own kind (wooden
-- ones join each other, nether brick only nether brick), a fence gate whose
-- facing runs across the join, and the sturdy side of a full block; a pane or
-- iron bars join panes, bars, walls and full blocks; a wall joins walls, panes,
-- bars, gates across the join and full blocks. Leaves, pumpkins, melons,
-- barriers and shulker boxes are not joined even when full. A wall shows its
-- post unless it continues straight on exactly two opposite sides (the game
-- also looks at the block above; we do not). Stairs turn into inner and outer
-- corners after the modern game's StairBlock.getStairsShape.
-- @module blockphys.legacy_connect

local legacy_ids = require "blockphys.legacy_ids"
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

-- Directions in the order of the property names, with their cell offsets and
-- the axis a gate must face to join from that side (the join's clockwise axis).
local SIDES = {
  { name = "east", dx = 1, dz = 0, gate_axis = "z" },
  { name = "north", dx = 0, dz = -1, gate_axis = "x" },
  { name = "south", dx = 0, dz = 1, gate_axis = "x" },
  { name = "west", dx = -1, dz = 0, gate_axis = "z" },
}
-- Legacy gate metadata & 3 -> the axis of its facing (south, west, north, east).
local GATE_AXIS = { [0] = "z", "x", "z", "x" }

-- Whether a legacy id and metadata is a full unit cube (a sturdy side), cached.
local sturdy_cache = {}
local function sturdy(id, meta)
  local key = id * 16 + meta
  local v = sturdy_cache[key]
  if v == nil then
    local def = minecraft.block_def(legacy_ids.state(id, meta))
    local b = def.boxes
    v = not EXCEPTIONS[id] and not def.liquid and b ~= nil and #b == 1
      and b[1][1] == 0 and b[1][2] == 0 and b[1][3] == 0
      and b[1][4] == 1 and b[1][5] == 1 and b[1][6] == 1
    sturdy_cache[key] = v
  end
  return v
end

local function joins(kind, side, nid, nmeta)
  local nkind = KIND[nid]
  if kind == "pane" then
    if nkind == "pane" or nkind == "wall" then return true end
  elseif kind == "wall" then
    if nkind == "wall" or nkind == "pane" then return true end
  elseif nkind == kind then -- a fence of the same kind
    return true
  end
  if kind ~= "pane" and GATES[nid] then return GATE_AXIS[nmeta & 3] == side.gate_axis end
  return nkind == nil and sturdy(nid, nmeta)
end

-- Stairs: legacy ids, and their metadata's facing (meta & 3) and half (meta & 4).
local STAIRS = set{ 53, 67, 108, 109, 114, 128, 134, 135, 136, 156, 163, 164, 180, 203 }
local STAIR_FACING = { [0] = "east", "west", "south", "north" }
local STEP = { north = { 0, -1 }, south = { 0, 1 }, west = { -1, 0 }, east = { 1, 0 } }
local OPPOSITE = { north = "south", south = "north", west = "east", east = "west" }
local COUNTER_CLOCKWISE = { north = "west", west = "south", south = "east", east = "north" }
local AXIS = { north = "z", south = "z", west = "x", east = "x" }

-- The facing and half of the stairs at the neighbour (dx, dz), or nil.
local function stair_at(neighbour, dir)
  local nid, nmeta = neighbour(STEP[dir][1], STEP[dir][2])
  if not (nid and STAIRS[nid]) then return nil end
  return STAIR_FACING[nmeta & 3], nmeta & 4
end

-- The modern game's StairBlock.getStairsShape: a stair of the same half in front
-- (toward its facing) turned across makes an outer corner, one behind an inner
-- corner, unless the stair on the side the corner turns toward already faces the
-- same way.
local function stair_shape(meta, neighbour)
  local facing, half = STAIR_FACING[meta & 3], meta & 4
  local function can_take(dir)
    local f, h = stair_at(neighbour, dir)
    return f == nil or f ~= facing or h ~= half
  end
  local f, h = stair_at(neighbour, facing)
  if f and h == half and AXIS[f] ~= AXIS[facing] and can_take(OPPOSITE[f]) then
    return f == COUNTER_CLOCKWISE[facing] and "outer_left" or "outer_right"
  end
  f, h = stair_at(neighbour, OPPOSITE[facing])
  if f and h == half and AXIS[f] ~= AXIS[facing] and can_take(f) then
    return f == COUNTER_CLOCKWISE[facing] and "inner_left" or "inner_right"
  end
  return "straight"
end

--- The connection properties of a legacy connecting block, or nil for any
-- other id.
-- @tparam integer id legacy block id (0..4095)
-- @tparam function neighbour `neighbour(dx, dz)` returns the legacy id and
--   metadata of the cell beside it (dx, dz in -1..1, one of them 0), or nil
--   outside the schematic (nothing joins there)
-- @treturn string|nil properties in name order, such as
--   `"[east=true,north=false,south=true,west=false]"` (walls also have `up`)
function legacy_connect.props(id, neighbour)
  local kind = KIND[id]
  if not kind then return nil end
  local parts, joined = {}, {}
  for i, side in ipairs(SIDES) do
    local nid, nmeta = neighbour(side.dx, side.dz)
    joined[side.name] = nid ~= nil and joins(kind, side, nid, nmeta)
    parts[i] = side.name .. "=" .. tostring(joined[side.name])
  end
  if kind == "wall" then
    local ns, ew = joined.north and joined.south, joined.east and joined.west
    local straight = (ns and not joined.east and not joined.west)
      or (ew and not joined.north and not joined.south)
    parts[#parts + 1] = "up=" .. tostring(not straight)
  end
  table.sort(parts) -- properties in name order, as modern files write them
  return "[" .. table.concat(parts, ",") .. "]"
end

--- The state of a legacy cell whose shape depends on its neighbours, or nil
-- for one that does not (its state depends on its id and metadata alone).
-- @tparam integer id legacy block id
-- @tparam integer meta its metadata, 0..15
-- @tparam string state what `legacy_ids.state` gives for them
-- @tparam function neighbour as for `props`
-- @treturn string|nil the state with its connections (fences, panes, bars,
--   walls) or its stair shape (`shape=inner_left` and so on)
function legacy_connect.state(id, meta, state, neighbour)
  if STAIRS[id] then
    local shape = stair_shape(meta, neighbour)
    return (state:gsub("shape=straight", "shape=" .. shape, 1))
  end
  local props = legacy_connect.props(id, neighbour)
  return props and state .. props
end

return legacy_connect
