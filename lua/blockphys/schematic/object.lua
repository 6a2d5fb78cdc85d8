--- The loaded schematic, for `blockphys.schematic.load`: the methods every
-- schematic has (`index`, `get`) and the field every reader's result gets
-- (`count_nonair`). The table's fields are listed in `blockphys.schematic`.
--
-- Source: the Sponge format's cell order; our own storage.
--
-- @module blockphys.schematic.object
-- @local

local compat = require "blockphys.compat"
local states = require "blockphys.state"
local cells = require "blockphys.schematic.cells"

local object = {}

local char, unpack = string.char, compat.bytes.unpack
local concat = table.concat
local is_int = compat.is_integer
local parse_state, is_air_name = states.parse_state, states.is_air

local Schematic = {}
Schematic.__index = Schematic
Schematic.__name = "blockphys.Schematic"

local CELL_FORMATS = cells.FORMATS

--- 1-based palette index of a cell, or nil outside the schematic.
-- @tparam integer x local X, 0 .. width-1
-- @tparam integer y local Y, 0 .. height-1
-- @tparam integer z local Z, 0 .. length-1
-- @treturn integer|nil nil also for non-integer coordinates (never raises)
-- Source: the Sponge format's cell order (index = x + z * width + y * width *
-- length), our own storage.
function Schematic:index(x, y, z)
  local w, h, l = self.width, self.height, self.length
  if not is_int(x) or not is_int(y) or not is_int(z)
      or x < 0 or y < 0 or z < 0 or x >= w or y >= h or z >= l then
    return nil
  end
  local n = self.cell_bytes
  local pos = (x + z * w + y * w * l) * n + 1
  return unpack(CELL_FORMATS[n], self.blocks, pos) + 1
end

--- Block state string of a cell, or nil outside the schematic.
-- @tparam integer x local X, 0 .. width-1
-- @tparam integer y local Y, 0 .. height-1
-- @tparam integer z local Z, 0 .. length-1
-- @treturn string|nil e.g. `"minecraft:stone"`; nil also for non-integer
--   coordinates (never raises). Source: as `index`.
function Schematic:get(x, y, z)
  local i = self:index(x, y, z)
  return i and self.palette[i]
end

-- Per palette entry, whether it is air (air, cave_air, void_air).
local function air_flags(palette)
  local flags = {}
  for i, state in ipairs(palette) do
    flags[i] = is_air_name((parse_state(state)))
  end
  return flags
end

-- Counts the bytes of `s` whose values are in the list `values`, in one pattern
-- pass (C speed, no Lua loop; one pass for all of them, however many there are).
local function count_bytes(s, values)
  if #values == 0 then return 0 end
  local class = {}
  for i, v in ipairs(values) do
    local c = char(v)
    class[i] = v == 0 and compat.PATTERN_NUL or c:find("%p") and "%" .. c or c
  end
  local _, n = s:gsub("[" .. concat(class) .. "]", "")
  return n
end

-- Counts non-air cells of a 1-byte-per-cell string without a Lua loop per
-- cell, or of wider cells with one.
local function count_nonair(blocks, nb, ncells, is_air)
  local air = 0
  if nb == 1 then
    local values = {}
    for i, flag in ipairs(is_air) do
      if flag then values[#values + 1] = i - 1 end
    end
    air = count_bytes(blocks, values)
  else
    local fmt = CELL_FORMATS[nb]
    for pos = 1, ncells * nb, nb do
      if is_air[unpack(fmt, blocks, pos) + 1] then air = air + 1 end
    end
  end
  return ncells - air
end

--- A reader's result as a loaded schematic: `t` (the fields a reader fills in:
-- size, offset, palette, blocks, cell_bytes, format, data_version) with
-- `count_nonair` added and the schematic's methods; or, for a reader's failure
-- (`t` nil), nil and its message.
-- @tparam table|nil t
-- @param err the reader's message when `t` is nil
-- @treturn[1] table the schematic
-- @return[2] nil
-- @treturn[2] string err
function object.finish(t, err)
  if not t then return nil, err end
  local ncells = t.width * t.height * t.length
  t.count_nonair = count_nonair(t.blocks, t.cell_bytes, ncells, air_flags(t.palette))
  return setmetatable(t, Schematic)
end

return object
