--- Schematic import: Sponge v1/v2/v3 (`.schem`), MCEdit/Schematica
-- (`.schematic`), vanilla structure (`.nbt`, `blockphys.structure`) and Litematica
-- (`.litematic`, `blockphys.litematic`) files, and pasting them into a `blockphys`
-- world.
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
-- | `offset` | `{x, y, z}`: the file's Offset (Sponge: WorldEdit writes the world min |
-- | | corner in v1/v2, min corner minus origin in v3), WEOffset (MCEdit), the regions' |
-- | | min corner (Litematica), else 0, 0, 0; `paste` ignores it |
-- | `palette` | array (1-based) of block state strings, e.g. `"minecraft:stone"` |
-- | `blocks` | string, `cell_bytes` bytes per cell (see below) |
-- | `cell_bytes` | 1, 2 or 3 |
-- | `format` | `"sponge1"`, `"sponge2"`, `"sponge3"`, `"mcedit"`, `"structure"` or `"litematic"` |
-- | `count_nonair` | number of cells that are not air, cave_air or void_air |
-- | `data_version` | the file's DataVersion (Sponge, structure) or MinecraftDataVersion (Litematica), or nil |
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
-- Source: the Sponge Schematic Specification (versions 1 to 3), the
-- MCEdit/Schematica `.schematic` layout as published by those projects, the
-- Minecraft Wiki's "Structure file" page and Litematica's source (see those
-- modules); our own readers. Everything in this module is our own.
--
-- @module blockphys.schematic

local nbt = require "blockphys.nbt"
local reader = require "blockphys.nbt.reader"
local options = require "blockphys.options"
local minecraft = require "blockphys.minecraft"
local cells = require "blockphys.cells"
local legacy_connect = require "blockphys.legacy_connect"

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
-- @treturn string|nil e.g. `"minecraft:stone"`; nil also for non-integer
--   coordinates (never raises). Source: as `index`.
function Schematic:get(x, y, z)
  local i = self:index(x, y, z)
  return i and self.palette[i]
end

---------------------------------------------------------------------------
-- Input: path or bytes, gzip or raw NBT
---------------------------------------------------------------------------

local GZIP_MAGIC = "\31\139"
local NBT_COMPOUND = "\10"

local function looks_like_data(s)
  return sub(s, 1, 2) == GZIP_MAGIC or sub(s, 1, 1) == NBT_COMPOUND
end

-- Pieces: a source of bytes read piece by piece, `pieces(n)` giving the next at
-- most n bytes, nil at the end, or nil and a message when reading fails. A file is
-- never read whole: gzip is inflated as it is read and raw NBT stops past
-- `max_bytes`, so a huge file (or /dev/zero) costs no more memory than the bound.

local function string_pieces(s)
  local pos = 1
  return function(n)
    if pos > #s then return nil end
    local piece = sub(s, pos, pos + n - 1)
    pos = pos + n
    return piece
  end
end

local function file_pieces(f, path)
  return function(n)
    local piece, err = f:read(n)
    if piece == nil and err then return nil, format("cannot read file: %s: %s", path, err) end
    return piece
  end
end

-- The pieces of `src` and a function that releases them, or nil and a message. A
-- string holding a NUL byte cannot be a path, so it is data; otherwise an
-- existing file wins over data that merely looks like gzip or NBT.
local function open_source(src)
  if type(src) ~= "string" then
    return nil, "expected a file path or schematic data (string), got " .. type(src)
  end
  if src == "" then return nil, "empty string (expected a file path or schematic data)" end
  if not src:find("\0", 1, true) and #src <= 4096 then
    local f, err = io.open(src, "rb")
    if f then return file_pieces(f, src), function() f:close() end end
    if not looks_like_data(src) then return nil, "cannot open file: " .. err end
  end
  return string_pieces(src), function() end
end

-- Size of each piece fed to zlib. Small enough that a maximal compression
-- ratio (about 1000:1) cannot overshoot `max_bytes` by more than ~16 MiB.
local INFLATE_PIECE = 16 * 1024
-- Bytes per read of raw NBT (file:read(n) allocates n bytes before it reads).
local READ_PIECE = 1024 * 1024

-- The inflated document from `first` and the pieces after it.
local function inflate_all(first, pieces, max_bytes)
  local ok_req, zlib = pcall(require, "zlib")
  if not ok_req then return nil, "gzip data needs lua-zlib (require \"zlib\" failed)" end
  local stream = zlib.inflate()
  local parts, total, piece = {}, 0, first
  while piece do
    local ok, out, done = pcall(stream, piece)
    if not ok then return nil, "corrupted gzip data (" .. tostring(out) .. ")" end
    total = total + #out
    if total > max_bytes then
      return nil, format("decompressed data exceeds %d bytes", max_bytes)
    end
    parts[#parts + 1] = out
    -- Bytes after the end of the gzip member (padding) are not read.
    if done then return concat(parts) end
    local err
    piece, err = pieces(INFLATE_PIECE)
    if err then return nil, err end
  end
  return nil, "truncated gzip data (stream ends early)"
end

-- The raw document from `first` and the pieces after it.
local function read_all(first, pieces, max_bytes)
  local parts, total, piece = {}, 0, first
  while piece do
    total = total + #piece
    if total > max_bytes then return nil, format("data exceeds %d bytes", max_bytes) end
    parts[#parts + 1] = piece
    local err
    piece, err = pieces(READ_PIECE)
    if err then return nil, err end
  end
  return concat(parts)
end

local function document_bytes(src, max_bytes)
  local pieces, close = open_source(src)
  if not pieces then return nil, close end -- close is the message then
  local first, err = pieces(INFLATE_PIECE)
  local data
  if sub(first or "", 1, 2) == GZIP_MAGIC then
    data, err = inflate_all(first, pieces, max_bytes)
  elseif sub(first or "", 1, 1) == NBT_COMPOUND then
    data, err = read_all(first, pieces, max_bytes)
  elseif not err then
    err = "not a schematic (expected gzip or NBT data)"
  end
  close()
  return data, err
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

-- Palette compound (state -> 0-based index) to a 1-based array of states. The
-- specification only recommends indices 0..n-1 with no gap, and WorldEdit's reader
-- takes any: an index may be any integer up to cells.MAX_PALETTE - 1, and the
-- indices no entry names read as air. Two entries may not share an index.
local function palette_array(c, where)
  if not is_compound(c) then return nil, "missing or invalid " .. where end
  -- (at most cells.MAX_PALETTE entries: `load` decodes no larger compound)
  local entries = {}
  for state, idx in pairs(c) do entries[#entries + 1] = { state, idx } end
  if #entries == 0 then return nil, where .. " is empty" end
  -- Checked in name order, so that of several problems the same one is reported
  -- in every run (pairs follows the hash order, which Lua seeds per state).
  table.sort(entries, function(a, b) return a[1] < b[1] end)
  local out, top = {}, 0 -- top: the highest index named, + 1
  for _, e in ipairs(entries) do
    local state, idx = e[1], e[2]
    if mtype(idx) ~= "integer" then
      return nil, format("%s entry %q has a non-integer index", where, state)
    end
    if idx < 0 or idx >= cells.MAX_PALETTE then
      return nil, format("%s index %d of %q out of range 0..%d", where, idx, state,
        cells.MAX_PALETTE - 1)
    end
    if out[idx + 1] then
      return nil, format("%s index %d used twice", where, idx)
    end
    local ok, err = minecraft.parse_state(state)
    if not ok then return nil, format("%s entry: %s", where, err) end
    out[idx + 1] = state
    top = math.max(top, idx + 1)
  end
  for i = 1, top do out[i] = out[i] or "minecraft:air" end
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

local cell_bytes_for = cells.bytes_for

-- Counts the bytes of `s` whose values are in the list `values`, in one pattern
-- pass (C speed, no Lua loop; one pass for all of them, however many there are).
local function count_bytes(s, values)
  if #values == 0 then return 0 end
  local class = {}
  for i, v in ipairs(values) do
    local c = char(v)
    class[i] = c:find("%p") and "%" .. c or c
  end
  local _, n = s:gsub("[" .. concat(class) .. "]", "")
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

local PACK_CHUNK, pack_cells = cells.PACK_CHUNK, cells.pack

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

-- finish for a parser's result: the fields, or nil and a message.
local function finish_parsed(t, err)
  if not t then return nil, err end
  return finish(t)
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

local legacy_ids = require "blockphys.legacy_ids"

--- Modern block state string for a legacy (pre-1.13) numeric id (0..4095)
-- and metadata (0..15): `blockphys.legacy_ids.state`, which documents the
-- arguments, the result and the errors. Source: our own table.
-- @function legacy_state
schematic.legacy_state = legacy_ids.state

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
    local m = s.Materials
    -- a string as written; any other tag by its kind (never an address)
    local what = type(m) == "string" and format("%q", m)
      or type(m) == "table" and "(a " .. (nbt.kind(m) or "table") .. ")" or tostring(m)
    return nil, format("unsupported MCEdit Materials %s (only Alpha)", what)
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
  local palette, index_of, buf = {}, {}, {}
  local plane = w * l
  -- The cell being read, for the two neighbour functions (made once per load).
  local i, x, z, y = 0, 0, 0, 0
  local function meta_at(dy) -- doors read their other half: the same block only
    local yy = y + dy
    if yy < 0 or yy >= h then return nil end
    local j = i + dy * plane
    if legacy_id(blocks, add, j) ~= legacy_id(blocks, add, i) then return nil end
    return byte(data, j + 1) & 15
  end
  local function neighbour(dx, dz, dy) -- connections and stair shapes (legacy_connect)
    dy = dy or 0
    local xx, zz, yy = x + dx, z + dz, y + dy
    if xx < 0 or xx >= w or zz < 0 or zz >= l or yy < 0 or yy >= h then return nil end
    local j = i + dx + dz * w + dy * plane
    return legacy_id(blocks, add, j), byte(data, j + 1) & 15
  end
  local function entry(state) -- the 1-based palette index of a state
    local pi = index_of[state]
    if not pi then
      palette[#palette + 1] = state
      pi = #palette
      index_of[state] = pi
    end
    return pi
  end
  -- Cells are packed as they are read, PACK_CHUNK at a time, two bytes each (a
  -- table of one number per cell took 16 bytes per cell: gigabytes for the
  -- largest files); narrowed to one byte at the end if the palette allows.
  local pieces, k = {}, 0
  for cell = 0, ncells - 1 do
    i = cell
    local id, meta = legacy_id(blocks, add, i), byte(data, i + 1) & 15
    local key = id * 16 + meta
    local pi = index_of[key]
    if not pi then
      x, z, y = i % w, (i // w) % l, i // plane
      -- A connecting block or stair: cached by its neighbour code as well.
      local code = legacy_connect.code(id, meta, neighbour)
      local ckey = code and (key * 64 + code) * -1 - 1 -- negative: apart from plain keys
      pi = ckey and index_of[ckey]
      if not pi then
        local state = schematic.legacy_state(id, meta, meta_at)
        if code then state = legacy_connect.apply(id, state, code) end
        pi = entry(state)
        if ckey then index_of[ckey] = pi end
      end
      -- Doors depend on their other half, connecting blocks and stairs on their
      -- neighbours, so their states are not cached by id and metadata alone.
      if not DOOR_IDS[id] and not code then index_of[key] = pi end
    end
    k = k + 1
    buf[k] = pi - 1
    if k == PACK_CHUNK then
      pieces[#pieces + 1] = pack_cells(buf, k, 2)
      k = 0
    end
  end
  if k > 0 then pieces[#pieces + 1] = pack_cells(buf, k, 2) end
  local nb = cell_bytes_for(#palette)
  if nb == 1 then
    -- every index is below 256: each big-endian pair is a zero and the index byte
    for j, piece in ipairs(pieces) do pieces[j] = piece:gsub("\0(.)", "%1") end
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

local structure = require "blockphys.structure"
local litematic = require "blockphys.litematic"

local function parse_root(root_name, root, max_bytes)
  if not is_compound(root) then
    return nil, format("not a schematic: root tag %q is not a compound", root_name)
  end
  -- Litematica documents also carry a Version (theirs): test for them first.
  if litematic.detect(root) then return finish_parsed(litematic.parse(root, max_bytes)) end
  if structure.detect(root) then return finish_parsed(structure.parse(root, max_bytes)) end
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
  return nil, format("not a schematic: root %q has no Version, Blocks, Regions or size and blocks",
    root_name)
end

-- Entries of the documents that no loader reads, left undecoded: block
-- entities (chest contents, signs), entities and scheduled ticks of Sponge,
-- MCEdit, structure (`nbt` of a block, `entities`) and Litematica files, and the
-- free-form `Metadata` of Sponge and Litematica files. A build with thousands of
-- filled containers would otherwise pass nbt.MAX_VALUES.
-- Each name with the tag type it has there (9 list, 10 compound); [1] names the
-- compound whose entries are never skipped: Litematica's regions, named by users.
local UNREAD = {
  "Regions",
  BlockEntities = 9, TileEntities = 9, Entities = 9, entities = 9, nbt = 10,
  TileTicks = 9, PendingBlockTicks = 9, PendingFluidTicks = 9, Metadata = 10,
}

-- The palettes of every format (Sponge's compound, the structure and Litematica
-- lists, each list of a structure's `palettes`), refused past cells.MAX_PALETTE
-- entries as they are decoded.
local PALETTE_CAPS = {
  Palette = cells.MAX_PALETTE, palette = cells.MAX_PALETTE,
  BlockStatePalette = cells.MAX_PALETTE, ["palettes[]"] = cells.MAX_PALETTE,
}

--- Loads a schematic from a file path or from its bytes.
--
-- `src` is read as a file if such a file exists; otherwise it is taken as
-- data if it starts with the gzip magic (`"\31\139"`) or an NBT compound
-- tag. Gzipped and uncompressed NBT are both accepted.
-- @tparam string src path, or file contents
-- @tparam[opt] table opts `max_bytes`: largest decompressed size accepted, and
--   largest cell string of a structure or Litematica file, whose cells need not
--   all be stored (default `schematic.MAX_BYTES`)
-- @treturn[1] table the schematic (see the module description)
-- @return[2] nil
-- @treturn[2] string message starting with `"schematic: "`
-- @usage local schem = assert(schematic.load("lobby.schem"))
-- print(schem.width, schem.height, schem.length, schem:get(0, 0, 0))
function schematic.load(src, opts)
  if opts ~= nil and type(opts) ~= "table" then
    return nil, "schematic: opts must be a table, got " .. type(opts)
  end
  -- Options are read raw (next, rawget), so that no metamethod can raise here.
  local bad = options.unknown(opts, "max_bytes")
  if bad then return nil, "schematic: " .. bad end
  local max_bytes = opts and rawget(opts, "max_bytes")
  if max_bytes == nil then
    max_bytes = schematic.MAX_BYTES
  elseif mtype(max_bytes) ~= "integer" or max_bytes < 0 then
    return nil, "schematic: opts.max_bytes must be a non-negative integer"
  end
  local ok, res, err = pcall(function()
    local bytes, derr = document_bytes(src, max_bytes)
    if not bytes then return nil, derr end
    local name, root = reader.decode(bytes, nbt.MAX_DEPTH, nbt.MAX_VALUES, UNREAD, PALETTE_CAPS)
    if not name then return nil, root end
    return parse_root(name, root, max_bytes)
  end)
  if not ok then
    -- Nothing above should raise; if it does, keep the promise of nil, msg.
    return nil, "schematic: internal error: " .. tostring(res)
  end
  if not res then return nil, "schematic: " .. err end
  return res
end

---------------------------------------------------------------------------
-- Pasting into a world (in `blockphys.paste`)
---------------------------------------------------------------------------

local pasting = require "blockphys.paste"

--- Places a schematic in a world with its minimum corner at block (x, y, z);
-- see `blockphys.paste` for the arguments, the result and the errors.
-- @function paste
schematic.paste = pasting.paste

--- `paste` for `World:paste`, with argument numbers counted from the schematic.
-- @local
schematic._paste_method = pasting._paste_method

return schematic
