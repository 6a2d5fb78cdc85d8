--- Schematic import: Sponge v1/v2/v3 (`.schem`) and MCEdit/Schematica
-- (`.schematic`) files, and pasting them into a `blockphys` world.
--
-- Loading never raises: malformed, truncated, hostile or unsupported input
-- returns `nil, message`, and nothing proportional to a size read from the
-- file is allocated before that size has been checked against the data
-- actually present.
--
-- A loaded schematic is a table:
--
-- | field | meaning |
-- |---|---|
-- | `width`, `height`, `length` | size in blocks along X, Y, Z (0..65535) |
-- | `offset` | `{x, y, z}`: the file's Offset (Sponge) or WEOffset (MCEdit); `paste` ignores it |
-- | `palette` | array (1-based) of block state strings, e.g. `"minecraft:stone"` |
-- | `blocks` | string, `cell_bytes` bytes per cell (see below) |
-- | `cell_bytes` | 1, 2 or 3 |
-- | `format` | `"sponge1"`, `"sponge2"`, `"sponge3"` or `"mcedit"` |
-- | `count_nonair` | number of cells that are not air, cave_air or void_air |
-- | `data_version` | the file's DataVersion (Sponge), or nil |
--
-- and has the methods `schem:get(x, y, z)` and `schem:index(x, y, z)`.
--
-- Each cell of `blocks` is an unsigned big-endian integer of `cell_bytes`
-- bytes holding a 0-based palette index (the state is `palette[v + 1]`).
-- Cells are in Sponge order: cell `x + z*width + y*width*length` (0-based)
-- starts at byte `cell * cell_bytes + 1`. A string keeps large schematics
-- compact (one byte per block for palettes of up to 256 states) and, for
-- the common Sponge case, is the file's BlockData itself, not a copy.
--
-- @module blockphys.schematic

local nbt = require "blockphys.nbt"
local minecraft = require "blockphys.minecraft"

local schematic = {}

local format = string.format
local byte, char, sub, unpack = string.byte, string.char, string.sub, string.unpack
local concat = table.concat
local mtype = math.type

--- Largest decompressed document `load` accepts, in bytes (256 MiB). Guards
-- against compression bombs; pass `opts.max_bytes` to change it per call.
schematic.MAX_BYTES = 256 * 1024 * 1024

--- Splits a block state string into name and properties:
-- `"minecraft:oak_stairs[facing=east,half=bottom]"` gives
-- `"minecraft:oak_stairs", {facing = "east", half = "bottom"}`; a malformed
-- string gives `nil, message`. Same as `blockphys.minecraft.parse_state`.
-- @function parse_state
-- @tparam string s block state
-- @treturn[1] string name
-- @treturn[1] table properties
-- @return[2] nil
-- @treturn[2] string message
schematic.parse_state = minecraft.parse_state

---------------------------------------------------------------------------
-- The schematic object
---------------------------------------------------------------------------

local Schematic = {}
Schematic.__index = Schematic
Schematic.__name = "blockphys.Schematic"

local CELL_FORMATS = { ">I1", ">I2", ">I3" }

--- 1-based palette index of a cell, or nil outside the schematic.
-- @tparam integer x local X, 0 .. width-1
-- @tparam integer y local Y, 0 .. height-1
-- @tparam integer z local Z, 0 .. length-1
-- @treturn integer|nil
function Schematic:index(x, y, z)
  local w, h, l = self.width, self.height, self.length
  if mtype(x) ~= "integer" or mtype(y) ~= "integer" or mtype(z) ~= "integer"
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
-- @treturn string|nil e.g. `"minecraft:stone"`
function Schematic:get(x, y, z)
  local i = self:index(x, y, z)
  return i and self.palette[i]
end

schematic.get = Schematic.get
schematic.index = Schematic.index

---------------------------------------------------------------------------
-- Input: path or bytes, gzip or raw NBT
---------------------------------------------------------------------------

local GZIP_MAGIC = "\31\139"
local NBT_COMPOUND = "\10"

local function looks_like_data(s)
  return sub(s, 1, 2) == GZIP_MAGIC or sub(s, 1, 1) == NBT_COMPOUND
end

-- Returns the file's bytes, or nil, a message and whether it exists.
local function read_file(path)
  local f, err = io.open(path, "rb")
  if not f then return nil, "cannot open file: " .. err, false end
  local data, rerr = f:read("a")
  f:close()
  if not data then return nil, format("cannot read file: %s: %s", path, tostring(rerr)), true end
  return data
end

-- Returns the raw file or data bytes. A string holding a NUL byte cannot be
-- a path, so it is data; otherwise an existing file wins over data that
-- merely looks like gzip or NBT.
local function input_bytes(src)
  if type(src) ~= "string" then
    return nil, "expected a file path or schematic data (string), got " .. type(src)
  end
  if not src:find("\0", 1, true) and #src <= 4096 then
    local data, err, exists = read_file(src)
    if data then return data end
    if exists or not looks_like_data(src) then return nil, err end
  end
  return src
end

-- Size of each piece fed to zlib. Small enough that a maximal compression
-- ratio (about 1000:1) cannot overshoot `max_bytes` by more than ~16 MiB.
local INFLATE_PIECE = 16 * 1024

local function inflate_all(data, max_bytes)
  local ok_req, zlib = pcall(require, "zlib")
  if not ok_req then return nil, "gzip data needs lua-zlib (require \"zlib\" failed)" end
  local stream = zlib.inflate()
  local parts, total, eof = {}, 0, false
  for pos = 1, #data, INFLATE_PIECE do
    local ok, out, done = pcall(stream, sub(data, pos, pos + INFLATE_PIECE - 1))
    if not ok then return nil, "corrupted gzip data (" .. tostring(out) .. ")" end
    total = total + #out
    if total > max_bytes then
      return nil, format("decompressed data exceeds %d bytes", max_bytes)
    end
    parts[#parts + 1] = out
    -- Bytes after the end of the gzip member (padding) are ignored.
    if done then eof = true break end
  end
  if not eof then return nil, "truncated gzip data (stream ends early)" end
  return concat(parts)
end

local function document_bytes(src, max_bytes)
  local data, err = input_bytes(src)
  if not data then return nil, err end
  if sub(data, 1, 2) == GZIP_MAGIC then
    return inflate_all(data, max_bytes)
  end
  if sub(data, 1, 1) == NBT_COMPOUND then
    if #data > max_bytes then
      return nil, format("data exceeds %d bytes", max_bytes)
    end
    return data
  end
  return nil, "not a schematic (expected gzip or NBT data)"
end

---------------------------------------------------------------------------
-- Field access with validation
---------------------------------------------------------------------------

local function is_compound(v) return nbt.kind(v) == "compound" end

-- A size stored as an NBT Short: the format treats it as unsigned.
local function dimension(c, key)
  local v = c[key]
  if mtype(v) ~= "integer" then return nil, format("missing or invalid %s", key) end
  if v < 0 and v >= -32768 then v = v + 65536 end
  if v < 0 or v > 65535 then return nil, format("%s %d out of range 0..65535", key, v) end
  return v
end

local function dimensions(c)
  local w, err = dimension(c, "Width")
  if not w then return nil, err end
  local h; h, err = dimension(c, "Height")
  if not h then return nil, err end
  local l; l, err = dimension(c, "Length")
  if not l then return nil, err end
  return w, h, l
end

local function int_array_offset(v)
  if v == nil then return { 0, 0, 0 } end
  if nbt.kind(v) ~= "int_array" or #v ~= 3 then
    return nil, "invalid Offset (expected an int array of 3)"
  end
  return { v[1], v[2], v[3] }
end

-- Palette compound (state -> 0-based index) to a 1-based array of states.
-- Indices must be exactly 0..n-1 so every cell maps to one entry.
local function palette_array(c, where)
  if not is_compound(c) then return nil, "missing or invalid " .. where end
  local entries = {}
  for state, idx in pairs(c) do entries[#entries + 1] = { state, idx } end
  local n = #entries
  if n == 0 then return nil, where .. " is empty" end
  local out = {}
  for _, e in ipairs(entries) do
    local state, idx = e[1], e[2]
    if mtype(idx) ~= "integer" then
      return nil, format("%s entry %q has a non-integer index", where, state)
    end
    if idx < 0 or idx >= n then
      return nil, format("%s index %d of %q out of range 0..%d", where, idx, state, n - 1)
    end
    if out[idx + 1] then
      return nil, format("%s index %d used twice", where, idx)
    end
    local ok, err = minecraft.parse_state(state)
    if not ok then return nil, format("%s entry: %s", where, err) end
    out[idx + 1] = state
  end
  return out
end

local function air_flags(palette)
  local flags = {}
  for i, state in ipairs(palette) do
    flags[i] = minecraft.is_air((minecraft.parse_state(state)))
  end
  return flags
end

---------------------------------------------------------------------------
-- Sponge BlockData: one unsigned LEB128 varint per cell
---------------------------------------------------------------------------

local function cell_bytes_for(npal)
  if npal <= 256 then return 1 end
  if npal <= 65536 then return 2 end
  return 3
end

-- Counts occurrences of byte value `v` in `s` (C speed, no Lua loop).
local function count_byte(s, v)
  local c = char(v)
  if c:find("%p") then c = "%" .. c end
  local _, n = s:gsub(c, "")
  return n
end

-- Fast path: every index fits in one byte below 128, so BlockData already
-- is the cell string. Checked with one pattern scan for an out-of-range byte.
local function single_byte_cells(data, ncells, npal)
  if #data ~= ncells or npal > 128 then return nil end
  local last = char(npal - 1)
  -- ']' and '%' cannot end a range in a Lua pattern set; use the slow path.
  if last == "]" or last == "%" then return nil end
  if data:find("[^\0-" .. last .. "]") then return nil end
  return data
end

-- Packs `k` decoded indices from `buf` into a string of `nb` bytes each.
local PACK_CHUNK = 4096
local function pack_cells(buf, k, nb)
  if nb == 1 then
    local pieces = {}
    for i = 1, k, 200 do
      pieces[#pieces + 1] = char(table.unpack(buf, i, math.min(i + 199, k)))
    end
    return concat(pieces)
  end
  local pieces = {}
  for i = 1, k, 200 do
    local j = math.min(i + 199, k)
    pieces[#pieces + 1] = string.pack(">" .. string.rep("I" .. nb, j - i + 1), table.unpack(buf, i, j))
  end
  return concat(pieces)
end

-- Decodes one varint at `pos`; returns value and next position, or nil and
-- a message.
local function read_varint(data, pos, len)
  local value, shift = 0, 0
  for i = 0, 4 do
    if pos + i > len then return nil, "truncated varint at the end of the block data" end
    local b = byte(data, pos + i)
    value = value | ((b & 0x7F) << shift)
    if b < 0x80 then
      if value > 0x7FFFFFFF then
        return nil, format("varint at byte %d exceeds 32 bits", pos - 1)
      end
      return value, pos + i + 1
    end
    shift = shift + 7
  end
  return nil, format("varint at byte %d is longer than 5 bytes", pos - 1)
end

local function varint_cells(data, ncells, npal, where)
  local nb = cell_bytes_for(npal)
  local len = #data
  local pieces, buf, k = {}, {}, 0
  local pos = 1
  for cell = 1, ncells do
    if pos > len then
      return nil, format("%s too short: ends after %d of %d cells", where, cell - 1, ncells)
    end
    -- Most indices fit in one byte; only longer varints take the call.
    local v, nxt = byte(data, pos), pos + 1
    if v >= 0x80 then
      v, nxt = read_varint(data, pos, len)
      if not v then return nil, where .. ": " .. nxt end
    end
    if v >= npal then
      return nil, format("%s cell %d: palette index %d out of range (palette has %d entries)",
        where, cell - 1, v, npal)
    end
    pos = nxt
    k = k + 1
    buf[k] = v
    if k == PACK_CHUNK then
      pieces[#pieces + 1] = pack_cells(buf, k, nb)
      k = 0
    end
  end
  if pos <= len then
    return nil, format("%s has %d bytes after the last of %d cells", where, len - pos + 1, ncells)
  end
  if k > 0 then pieces[#pieces + 1] = pack_cells(buf, k, nb) end
  return concat(pieces), nb
end

-- Counts non-air cells of a 1-byte-per-cell string without a Lua loop per
-- cell, or of wider cells with one.
local function count_nonair(blocks, nb, ncells, is_air)
  local air = 0
  if nb == 1 then
    for i, flag in ipairs(is_air) do
      if flag then air = air + count_byte(blocks, i - 1) end
    end
  else
    local fmt = CELL_FORMATS[nb]
    for pos = 1, ncells * nb, nb do
      if is_air[unpack(fmt, blocks, pos) + 1] then air = air + 1 end
    end
  end
  return ncells - air
end

local function sponge_cells(data, ncells, palette, where)
  if type(data) ~= "string" then return nil, "missing or invalid " .. where end
  -- Every cell takes at least one byte, so a size header claiming more
  -- cells than there are bytes is rejected before any allocation.
  if ncells > #data then
    return nil, format("%s too short: %d cells need at least %d bytes, got %d",
      where, ncells, ncells, #data)
  end
  local npal = #palette
  local fast = single_byte_cells(data, ncells, npal)
  if fast then return fast, 1 end
  return varint_cells(data, ncells, npal, where)
end

local function finish(t)
  local ncells = t.width * t.height * t.length
  t.count_nonair = count_nonair(t.blocks, t.cell_bytes, ncells, air_flags(t.palette))
  return setmetatable(t, Schematic)
end

-- Sponge v1/v2: Palette and BlockData at the top level. v3: under Blocks.
local function parse_sponge(s, version)
  local w, h, l = dimensions(s)
  if not w then return nil, h end
  local offset, oerr = int_array_offset(s.Offset)
  if not offset then return nil, oerr end
  local pal_c, data, where_p, where_d = s.Palette, s.BlockData, "Palette", "BlockData"
  if version == 3 then
    if not is_compound(s.Blocks) then return nil, "missing or invalid Blocks" end
    pal_c, data, where_p, where_d = s.Blocks.Palette, s.Blocks.Data, "Blocks.Palette", "Blocks.Data"
  end
  local ncells = w * h * l
  -- Check the cheap size bound before walking the palette.
  if type(data) == "string" and ncells > #data then
    return nil, format("%s too short: %d cells need at least %d bytes, got %d",
      where_d, ncells, ncells, #data)
  end
  local palette, perr = palette_array(pal_c, where_p)
  if not palette then return nil, perr end
  local blocks, nb = sponge_cells(data, ncells, palette, where_d)
  if not blocks then return nil, nb end
  return finish {
    width = w, height = h, length = l, offset = offset, palette = palette,
    blocks = blocks, cell_bytes = nb, format = "sponge" .. version,
    data_version = mtype(s.DataVersion) == "integer" and s.DataVersion or nil,
  }
end

---------------------------------------------------------------------------
-- MCEdit / Schematica: numeric ids (Blocks + AddBlocks) and metadata (Data)
---------------------------------------------------------------------------

local legacy = {} -- id -> function(meta, ctx) returning a state string

local COLORS = {
  "white", "orange", "magenta", "light_blue", "yellow", "lime", "pink", "gray",
  "light_gray", "cyan", "purple", "blue", "brown", "green", "red", "black",
}
local WOODS = { "oak", "spruce", "birch", "jungle", "acacia", "dark_oak" }

local function mc(name) return "minecraft:" .. name end

-- Helpers that build the mapping functions.
local function plain(name) return function() return mc(name) end end
local function by_meta(names, mask, fallback)
  return function(meta)
    return mc(names[(meta & (mask or 15)) + 1] or fallback or names[1])
  end
end
local function colored(suffix)
  return function(meta) return mc(COLORS[meta + 1] .. suffix) end
end

-- Facing tables of the legacy metadata encodings.
local FACE_2345 = { [2] = "north", [3] = "south", [4] = "west", [5] = "east" }
local STAIR_FACING = { [0] = "east", "west", "south", "north" }
local SOUTH_WEST_NORTH_EAST = { [0] = "south", "west", "north", "east" }

local function stairs(name)
  return function(meta)
    local half = (meta & 4) ~= 0 and "top" or "bottom"
    return mc(format("%s[facing=%s,half=%s,shape=straight]", name, STAIR_FACING[meta & 3], half))
  end
end

local function slab(kinds)
  return function(meta)
    local kind = kinds[(meta & 7) + 1] or kinds[1]
    local t = (meta & 8) ~= 0 and "top" or "bottom"
    return mc(format("%s_slab[type=%s]", kind, t))
  end
end
local function double_slab(kinds)
  return function(meta)
    return mc(format("%s_slab[type=double]", kinds[(meta & 7) + 1] or kinds[1]))
  end
end

local function facing_2345(name)
  return function(meta)
    return mc(format("%s[facing=%s]", name, FACE_2345[meta & 7] or "north"))
  end
end

local function fence_gate(name)
  return function(meta)
    local open = (meta & 4) ~= 0 and "true" or "false"
    return mc(format("%s[facing=%s,open=%s]", name, SOUTH_WEST_NORTH_EAST[meta & 3], open))
  end
end

local TORCH_WALL = { [1] = "east", [2] = "west", [3] = "south", [4] = "north" }
local function torch(floor, wall)
  return function(meta)
    local f = TORCH_WALL[meta & 7]
    if f then return mc(format("%s[facing=%s]", wall, f)) end
    return mc(floor)
  end
end

-- Doors keep facing/open in the lower half and hinge in the upper half;
-- each half reads the other through `ctx.meta_at(dy)`.
local DOOR_FACING = { [0] = "east", "south", "west", "north" }
local function door(name)
  return function(meta, ctx)
    local lower, upper, half
    if (meta & 8) ~= 0 then
      lower, upper, half = ctx.meta_at(-1) or 0, meta, "upper"
    else
      lower, upper, half = meta, ctx.meta_at(1) or 8, "lower"
    end
    local hinge = (upper & 1) ~= 0 and "right" or "left"
    local open = (lower & 4) ~= 0 and "true" or "false"
    return mc(format("%s[facing=%s,half=%s,hinge=%s,open=%s]",
      name, DOOR_FACING[lower & 3], half, hinge, open))
  end
end

local TRAPDOOR_FACING = { [0] = "north", "south", "west", "east" }
local function trapdoor(name)
  return function(meta)
    return mc(format("%s[facing=%s,half=%s,open=%s]", name, TRAPDOOR_FACING[meta & 3],
      (meta & 8) ~= 0 and "top" or "bottom", (meta & 4) ~= 0 and "true" or "false"))
  end
end

local function wood_name(suffix)
  return function(meta) return mc((WOODS[(meta & 7) + 1] or "oak") .. suffix) end
end

local function log(woods)
  return function(meta)
    local wood = woods[(meta & 3) + 1] or woods[1]
    local axis_bits = meta & 12
    if axis_bits == 12 then return mc(wood .. "_wood") end
    local axis = axis_bits == 4 and "x" or axis_bits == 8 and "z" or "y"
    return mc(format("%s_log[axis=%s]", wood, axis))
  end
end

local STONE_SLABS = {
  "smooth_stone", "sandstone", "petrified_oak", "cobblestone", "brick",
  "stone_brick", "nether_brick", "quartz",
}
local END_ROD_FACING = { [0] = "down", "up", "north", "south", "west", "east" }
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
legacy[8] = plain("water")
legacy[9] = plain("water")
legacy[10] = plain("lava")
legacy[11] = plain("lava")
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
legacy[26] = plain("red_bed")
legacy[27] = plain("powered_rail")
legacy[28] = plain("detector_rail")
legacy[29] = plain("sticky_piston")
legacy[30] = plain("cobweb")
legacy[31] = by_meta({ "dead_bush", "short_grass", "fern" })
legacy[32] = plain("dead_bush")
legacy[33] = plain("piston")
legacy[34] = plain("piston_head")
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
legacy[78] = function(meta) return mc(format("snow[layers=%d]", (meta & 7) + 1)) end
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
  return mc(format("end_portal_frame[eye=%s]", (meta & 4) ~= 0 and "true" or "false"))
end
legacy[121] = plain("end_stone")
legacy[122] = plain("dragon_egg")
legacy[123] = plain("redstone_lamp")
legacy[124] = plain("redstone_lamp")
legacy[125] = double_slab(WOODS)
legacy[126] = slab(WOODS)
legacy[127] = plain("cocoa")
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
legacy[139] = by_meta({ "cobblestone_wall", "mossy_cobblestone_wall" }, 1)
legacy[140] = plain("flower_pot")
legacy[141] = plain("carrots")
legacy[142] = plain("potatoes")
legacy[143] = plain("oak_button")
legacy[144] = function(meta)
  local f = FACE_2345[meta & 7]
  if f then return mc(format("skeleton_wall_skull[facing=%s]", f)) end
  return mc("skeleton_skull")
end
legacy[145] = function(meta)
  local kind = ({ "anvil", "chipped_anvil", "damaged_anvil" })[((meta >> 2) & 3) + 1] or "anvil"
  return mc(format("%s[facing=%s]", kind, SOUTH_WEST_NORTH_EAST[meta & 3]))
end
legacy[146] = facing_2345("trapped_chest")
legacy[147] = plain("light_weighted_pressure_plate")
legacy[148] = plain("heavy_weighted_pressure_plate")
legacy[149] = plain("comparator")
legacy[150] = plain("comparator")
legacy[151] = plain("daylight_detector")
legacy[152] = plain("redstone_block")
legacy[153] = plain("nether_quartz_ore")
legacy[154] = function(meta) return mc(format("hopper[facing=%s]", HOPPER_FACING[meta & 7] or "down")) end
legacy[155] = function(meta)
  if meta == 0 then return mc("quartz_block") end
  if meta == 1 then return mc("chiseled_quartz_block") end
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
legacy[198] = function(meta) return mc(format("end_rod[facing=%s]", END_ROD_FACING[meta & 7] or "up")) end
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

--- Modern block state string for a legacy (pre-1.13) numeric id and
-- metadata, as used by MCEdit schematics. Unknown ids give
-- `"minecraft:unknown_<id>"`.
-- @tparam integer id block id, 0..4095
-- @tparam integer meta metadata, 0..15
-- @tparam[opt] function meta_at `meta_at(dy)` returns the metadata of the
--   cell `dy` above (doors need the other half); nil when outside
-- @treturn string
function schematic.legacy_state(id, meta, meta_at)
  local f = legacy[id]
  if not f then return mc("unknown_" .. id) end
  return f(meta, { meta_at = meta_at or function() return nil end })
end

local DOOR_IDS = { [64] = true, [71] = true, [193] = true, [194] = true, [195] = true,
  [196] = true, [197] = true }

local function legacy_id(blocks, add, i)
  local id = byte(blocks, i + 1)
  if add then
    local a = byte(add, (i >> 1) + 1)
    -- AddBlocks packs two cells per byte: even cells in the low nibble.
    if a then id = id | (((i & 1) == 0 and (a & 15) or (a >> 4)) << 8) end
  end
  return id
end

local function parse_mcedit(s)
  local w, h, l = dimensions(s)
  if not w then return nil, h end
  if s.Materials ~= nil and s.Materials ~= "Alpha" then
    return nil, format("unsupported MCEdit Materials %q (only Alpha)", tostring(s.Materials))
  end
  local ncells = w * h * l
  local blocks, data, add = s.Blocks, s.Data, s.AddBlocks
  if type(data) ~= "string" then return nil, "missing or invalid Data" end
  if add ~= nil and type(add) ~= "string" then return nil, "invalid AddBlocks" end
  if #blocks < ncells then
    return nil, format("Blocks too short: %d cells, got %d bytes", ncells, #blocks)
  end
  if #data < ncells then
    return nil, format("Data too short: %d cells, got %d bytes", ncells, #data)
  end
  local palette, index_of, cells = {}, {}, {}
  local plane = w * l
  for i = 0, ncells - 1 do
    local id, meta = legacy_id(blocks, add, i), byte(data, i + 1) & 15
    local key = id * 16 + meta
    local pi = index_of[key]
    if not pi then
      local y = i // plane
      local state = schematic.legacy_state(id, meta, function(dy)
        local yy = y + dy
        if yy < 0 or yy >= h then return nil end
        return byte(data, i + dy * plane + 1) & 15
      end)
      pi = index_of[state]
      if not pi then
        palette[#palette + 1] = state
        pi = #palette
        index_of[state] = pi
      end
      -- Doors depend on their other half, so their states are not cached
      -- by id and metadata alone.
      if not DOOR_IDS[id] then index_of[key] = pi end
    end
    cells[i + 1] = pi - 1
  end
  local nb = cell_bytes_for(#palette)
  local pieces = {}
  for i = 1, ncells, PACK_CHUNK do
    local k = math.min(PACK_CHUNK, ncells - i + 1)
    pieces[#pieces + 1] = pack_cells(table.move(cells, i, i + k - 1, 1, {}), k, nb)
  end
  local offset = { 0, 0, 0 }
  for j, key in ipairs({ "WEOffsetX", "WEOffsetY", "WEOffsetZ" }) do
    if mtype(s[key]) == "integer" then offset[j] = s[key] end
  end
  return finish {
    width = w, height = h, length = l, offset = offset, palette = palette,
    blocks = concat(pieces), cell_bytes = nb, format = "mcedit",
  }
end

---------------------------------------------------------------------------
-- Format detection and the public loader
---------------------------------------------------------------------------

local function parse_root(root_name, root)
  if not is_compound(root) then
    return nil, format("not a schematic: root tag %q is not a compound", root_name)
  end
  -- Sponge v3 nests everything in a "Schematic" compound under an unnamed root.
  local s = is_compound(root.Schematic) and root.Schematic or root
  local version = s.Version
  if version ~= nil then
    if mtype(version) ~= "integer" then return nil, "invalid Version" end
    if version < 1 or version > 3 then
      return nil, format("unsupported Sponge schematic version %d", version)
    end
    return parse_sponge(s, version)
  end
  if type(s.Blocks) == "string" then return parse_mcedit(s) end
  return nil, format("not a schematic: root %q has no Version or Blocks", root_name)
end

--- Loads a schematic from a file path or from its bytes.
--
-- `src` is read as a file if such a file exists; otherwise it is taken as
-- data if it starts with the gzip magic (`"\31\139"`) or an NBT compound
-- tag. Gzipped and uncompressed NBT are both accepted.
-- @tparam string src path, or file contents
-- @tparam[opt] table opts `max_bytes`: largest decompressed size accepted
--   (default `schematic.MAX_BYTES`)
-- @treturn[1] table the schematic (see the module description)
-- @return[2] nil
-- @treturn[2] string message starting with `"schematic: "`
-- @usage local schem = assert(schematic.load("lobby.schem"))
-- print(schem.width, schem.height, schem.length, schem:get(0, 0, 0))
function schematic.load(src, opts)
  if opts ~= nil and type(opts) ~= "table" then
    return nil, "schematic: opts must be a table, got " .. type(opts)
  end
  local max_bytes = opts and opts.max_bytes or schematic.MAX_BYTES
  if mtype(max_bytes) ~= "integer" then
    return nil, "schematic: opts.max_bytes must be an integer"
  end
  local ok, res, err = pcall(function()
    local bytes, derr = document_bytes(src, max_bytes)
    if not bytes then return nil, derr end
    local name, root = nbt.decode(bytes)
    if not name then return nil, root end
    return parse_root(name, root)
  end)
  if not ok then
    -- Nothing above should raise; if it does, keep the promise of nil, msg.
    return nil, "schematic: internal error: " .. tostring(res)
  end
  if not res then return nil, "schematic: " .. err end
  return res
end

---------------------------------------------------------------------------
-- Pasting into a world
---------------------------------------------------------------------------

local INT32_MIN, INT32_MAX = -2 ^ 31, 2 ^ 31 - 1

-- Argument errors are raised at the line that called `paste` or `World:paste`: the
-- first stack frame outside this file (the checks sit at different depths below it,
-- and `World:paste` tail-calls `paste_method`, so its own frame is gone). Raising
-- directly, not through a pcall at the entry points, keeps other errors' tracebacks.
local THIS_SOURCE = debug.getinfo(1, "S").source

local function argerror(n, msg)
  local level = 2
  while true do
    local info = debug.getinfo(level, "S")
    if not info or info.source ~= THIS_SOURCE then break end
    level = level + 1
  end
  error(format("bad argument #%d to 'paste' (%s)", n, msg), level)
end

local function method_of(obj, name)
  local ok, f = pcall(function() return obj[name] end)
  return ok and type(f) == "function"
end

local function check_world(world)
  local t = type(world)
  if t ~= "table" and t ~= "userdata" then argerror(1, "world expected, got " .. t) end
  for _, m in ipairs({ "define_block", "block_id", "set_block" }) do
    if not method_of(world, m) then argerror(1, "world has no method '" .. m .. "'") end
  end
end

-- `n` below is the argument number when the world is argument 1; World:paste
-- passes base = -1 so that its messages count from the schematic.
local function check_schematic(schem, base)
  local n = 2 + base
  if type(schem) ~= "table" then argerror(n, "schematic expected, got " .. type(schem)) end
  for _, k in ipairs({ "width", "height", "length" }) do
    local v = schem[k]
    if mtype(v) ~= "integer" or v < 0 then argerror(n, "schematic has no valid " .. k) end
  end
  local nb = schem.cell_bytes
  if type(schem.palette) ~= "table" or type(schem.blocks) ~= "string"
      or not CELL_FORMATS[nb] then
    argerror(n, "schematic has no valid palette, blocks or cell_bytes")
  end
  if #schem.blocks ~= schem.width * schem.height * schem.length * nb then
    argerror(n, "schematic blocks do not match its size")
  end
  -- Entries 1..#palette, holes included (ipairs would stop at the first hole, and
  -- indices are bounded by #palette below).
  local npal = #schem.palette
  for i = 1, npal do
    if type(schem.palette[i]) ~= "string" then
      argerror(n, format("palette entry %d is not a string", i))
    end
  end
  -- `load` checks its indices; a table built or changed by hand may hold others.
  local fmt, blocks = CELL_FORMATS[nb], schem.blocks
  if npal < 256 ^ nb then
    for pos = 1, #blocks, nb do
      local v = unpack(fmt, blocks, pos)
      if v >= npal then
        argerror(n, format("schematic cell %d: palette index %d out of range (palette has %d entries)",
          (pos - 1) // nb, v, npal))
      end
    end
  end
end

local function check_coord(n, v, extent)
  local i = type(v) == "number" and math.tointeger(v)
  if not i then
    argerror(n, mtype(v) == "float" and "number has no integer representation"
      or "number expected, got " .. type(v))
  end
  if i < INT32_MIN or i > INT32_MAX or (extent > 0 and i + extent - 1 > INT32_MAX) then
    argerror(n, "block coordinate out of the int32 range")
  end
  return i
end

local function check_box(b)
  if type(b) ~= "table" then return "box is not a table" end
  for j = 1, 6 do
    if type(b[j]) ~= "number" or b[j] ~= b[j] then return "box coordinate is not a number" end
  end
  if b[1] < 0 or b[4] > 1 or b[3] < 0 or b[6] > 1 or b[2] < 0 or b[5] > 2 then
    return "box outside 0..1 (x, z) or 0..2 (y)"
  end
  if b[1] > b[4] or b[2] > b[5] or b[3] > b[6] then return "box min greater than max" end
  return nil
end

local function check_def(state, def, n)
  if type(def) ~= "table" or type(def.name) ~= "string" then
    argerror(n, format("block_def(%q) returned no definition with a name", state))
  end
  if def.boxes ~= nil then
    if type(def.boxes) ~= "table" then argerror(n, format("block_def(%q): boxes is not a table", state)) end
    for _, b in ipairs(def.boxes) do
      local err = check_box(b)
      if err then argerror(n, format("block_def(%q): %s", state, err)) end
    end
  end
end

-- One definition per palette entry (nil for air), plus the sorted names
-- of states the shape table guessed.
local function palette_defs(palette, shapes, n)
  local defs, guessed, seen = {}, {}, {}
  for i, state in ipairs(palette) do
    local name = minecraft.parse_state(state)
    if not (name and minecraft.is_air(name)) then
      local def, known = shapes.block_def(state)
      check_def(state, def, n)
      defs[i] = def
      local bare = name and (name:find(":", 1, true) and name or "minecraft:" .. name) or state
      if known == false and not seen[bare] then
        seen[bare] = true
        guessed[#guessed + 1] = bare
      end
    end
  end
  table.sort(guessed)
  return defs, guessed
end

-- Block ids for the definitions, reusing types the world already has.
local function define_all(world, defs, npal)
  local ids = {}
  for i = 1, npal do
    local def = defs[i]
    if def then
      ids[i] = world:block_id(def.name) or world:define_block(def)
    end
  end
  return ids
end

-- The body of paste; argument numbers in messages are shifted by `base`.
local function paste(world, schem, x, y, z, shapes, base)
  check_schematic(schem, base)
  local w, h, l = schem.width, schem.height, schem.length
  x = check_coord(3 + base, x, w)
  y = check_coord(4 + base, y, h)
  z = check_coord(5 + base, z, l)
  shapes = shapes == nil and minecraft or shapes
  if type(shapes) ~= "table" or type(shapes.block_def) ~= "function" then
    argerror(6 + base, "shape table with a block_def function expected")
  end
  local defs, guessed = palette_defs(schem.palette, shapes, 6 + base)
  local ids = define_all(world, defs, #schem.palette)
  local blocks, nb = schem.blocks, schem.cell_bytes
  local fmt = CELL_FORMATS[nb]
  local placed, pos = 0, 1
  for dy = 0, h - 1 do
    for dz = 0, l - 1 do
      for dx = 0, w - 1 do
        local id = ids[unpack(fmt, blocks, pos) + 1]
        pos = pos + nb
        if id then
          world:set_block(x + dx, y + dy, z + dz, id)
          placed = placed + 1
        end
      end
    end
  end
  return { placed = placed, guessed = guessed }
end

--- Places a schematic in a world with its minimum corner at block (x, y, z).
--
-- The schematic's own `offset` is not applied. Air cells (air, cave_air,
-- void_air) are skipped, so they leave the world's blocks as they were. A cell
-- whose index has no palette entry (a table built or changed by hand) raises.
-- Each distinct palette state is turned into a block type with
-- `shapes.block_def(state)`; a type whose name the world already knows
-- (`world:block_id`) is reused as it is.
--
-- Every argument and every definition is checked before the world is
-- touched, so a raised error leaves the world unchanged.
-- @param world a `blockphys` World (anything with `define_block`,
--   `block_id` and `set_block` methods)
-- @tparam table schem a schematic from `load`
-- @tparam integer x block X of the minimum corner (int32, as is x + width - 1)
-- @tparam integer y block Y of the minimum corner (int32, as is y + height - 1)
-- @tparam integer z block Z of the minimum corner (int32, as is z + length - 1)
-- @tparam[opt] table shapes module with `block_def(state) -> def, known`
--   (default `blockphys.minecraft`)
-- @treturn table `{placed = n, guessed = {names...}}`: blocks set, and the
--   sorted unique block names the shape table did not know (they became
--   full cubes)
-- @raise `bad argument #n to 'paste' (...)` for a bad world, schematic,
--   coordinate or shape definition
function schematic.paste(world, schem, x, y, z, shapes)
  check_world(world)
  return paste(world, schem, x, y, z, shapes, 0)
end

--- `schematic.paste` for `World:paste`: the same, with argument numbers counted
-- from the schematic (the world is `self`, which the caller has checked).
-- Its argument errors carry the position of its caller; `World:paste` calls it
-- in a tail call (`return schematic.paste_method(...)`), so that position is the
-- line of the user's `world:paste(...)`.
-- @local
function schematic.paste_method(world, schem, x, y, z, shapes)
  return paste(world, schem, x, y, z, shapes, -1)
end

return schematic
