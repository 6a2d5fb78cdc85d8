--- Schematic import: Sponge v1/v2/v3 (`.schem`), MCEdit/Schematica
-- (`.schematic`), vanilla structure (`.nbt`) and Litematica (`.litematic`) files,
-- and pasting them into a `blockphys` world.
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
-- This module reads the document and tells the formats apart; the package's
-- other modules do the rest: `source` (file or bytes, gzip or raw NBT), one
-- reader per format (`sponge`, `mcedit` with `legacy_ids`, `legacy_connect` and
-- `legacy_facing`, `structure`, `litematic` with `region_join`), `cells` (cell
-- strings and palettes they share), `object` (the loaded schematic's methods) and
-- `paste` (with `paste_args` and `place`).
--
-- Source: the Sponge Schematic Specification (versions 1 to 3), the
-- MCEdit/Schematica `.schematic` layout as published by those projects, the
-- Minecraft Wiki's "Structure file" page and Litematica's source (see those
-- modules); our own readers. Everything in this module is our own.
--
-- @module blockphys.schematic

local compat = require "blockphys.compat"
local nbt = require "blockphys.nbt"
local reader = require "blockphys.nbt.reader"
local options = require "blockphys.options"
local states = require "blockphys.state"
local source = require "blockphys.schematic.source"
local object = require "blockphys.schematic.object"
local cells = require "blockphys.schematic.cells"
local sponge = require "blockphys.schematic.sponge"
local mcedit = require "blockphys.schematic.mcedit"
local structure = require "blockphys.schematic.structure"
local litematic = require "blockphys.schematic.litematic"
local legacy_ids = require "blockphys.schematic.legacy_ids"
local pasting = require "blockphys.schematic.paste"

local schematic = {}

local format = string.format
local is_int = compat.is_integer
local finish = object.finish

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
schematic.parse_state = states.parse_state

--- Modern block state string for a legacy (pre-1.13) numeric id (0..4095)
-- and metadata (0..15): `blockphys.schematic.legacy_ids.state`, which documents
-- the arguments, the result and the errors. Source: our own table.
-- @function legacy_state
schematic.legacy_state = legacy_ids.state

---------------------------------------------------------------------------
-- Format detection and the public loader
---------------------------------------------------------------------------

local function is_compound(v) return nbt.kind(v) == "compound" end

local function parse_root(root_name, root, max_bytes)
  if not is_compound(root) then
    return nil, format("not a schematic: root tag %q is not a compound", root_name)
  end
  -- Litematica documents also carry a Version (theirs): test for them first.
  if litematic.detect(root) then return finish(litematic.parse(root, max_bytes)) end
  if structure.detect(root) then return finish(structure.parse(root, max_bytes)) end
  -- Sponge v3 nests everything in a "Schematic" compound under an unnamed root.
  local s = is_compound(root.Schematic) and root.Schematic or root
  local version = s.Version
  if version ~= nil then
    if not is_int(version) then return nil, "invalid Version" end
    if version < 1 or version > 3 then
      return nil, format("unsupported Sponge schematic version %d", version)
    end
    return finish(sponge.parse(s, version))
  end
  if type(s.Blocks) == "string" then return finish(mcedit.parse(s)) end
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

-- Litematica's region palettes, which `litematic` joins into one palette: the
-- distinct states of all of them together are refused past cells.MAX_PALETTE as
-- they are decoded, as one palette is.
local PALETTE_JOINS = {
  BlockStatePalette = { max = cells.MAX_PALETTE, key = cells.state_key },
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
  elseif not is_int(max_bytes) or max_bytes < 0 then
    return nil, "schematic: opts.max_bytes must be a non-negative integer"
  end
  local ok, res, err = pcall(function()
    -- The document is decoded as it is inflated or read: a hostile one is refused at
    -- its first problem (its value budget, a palette cap, a bad tag) without being
    -- read whole. One that decodes is read to its end first, so that a cut or
    -- corrupted gzip stream, or a document past max_bytes, is refused as before.
    local bytes, more, close = source.open(src, max_bytes)
    if not bytes then return nil, more end
    local name, root = reader.decode(bytes, nbt.MAX_DEPTH, nbt.MAX_VALUES, UNREAD, PALETTE_CAPS,
      PALETTE_JOINS, more)
    local done, ferr = true, nil
    if name then done, ferr = source.finish(more) end
    close()
    if not name then return nil, root end
    if not done then return nil, ferr end
    return parse_root(name, root, max_bytes)
  end)
  if not ok then
    -- Nothing above should raise; if it does, keep the promise of nil, msg.
    return nil, "schematic: internal error: " .. tostring(res)
  end
  if not res then return nil, "schematic: " .. err end
  return res
end

-- Pasting into a world (in `blockphys.schematic.paste`).

--- Places a schematic in a world with its minimum corner at block (x, y, z);
-- see `blockphys.schematic.paste` (the module) for the arguments, the result and
-- the errors.
-- @function paste
schematic.paste = pasting.paste

return schematic
