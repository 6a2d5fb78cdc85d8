--- Reader for Minecraft's Named Binary Tag (NBT) format, Java edition.
--
-- Pure Lua (5.1 to 5.4 and LuaJIT). The input is the raw (already decompressed) byte string of
-- one NBT document: a single named root tag, big-endian numbers.
--
-- The decoded tree uses plain Lua values:
--
-- | tag | Lua value |
-- |---|---|
-- | Byte, Short, Int, Long | integer (signed; Long uses the full 64 bits where Lua has 64-bit integers, 5.3 and 5.4; elsewhere a double, exact within ±2^53) |
-- | Float, Double | float |
-- | String | string (the modified UTF-8 bytes, not re-encoded) |
-- | Byte_Array | string (one byte per element; use `string.byte` / `string.unpack("b")` for signed values) |
-- | Int_Array, Long_Array | array of integers, metatable `nbt.IntArray` / `nbt.LongArray` (`long_words`: a long array's exact bits on every Lua) |
-- | List | array, metatable `nbt.List` carrying the element type (see `list_type`) |
-- | Compound | table keyed by tag name (no metatable) |
--
-- The reader is written for hostile input: every length is checked against
-- the bytes that remain *before* anything proportional to it is allocated,
-- negative lengths are rejected, nesting is limited, and no Lua error
-- escapes `decode`. The decoder itself is `blockphys.nbt.reader`; this module
-- checks the options and holds the limits.
--
-- Source: the NBT format as the Minecraft Wiki's "NBT format" page describes it
-- (our own reader).
--
-- @module blockphys.nbt

local reader = require "blockphys.nbt.reader"
local options = require "blockphys.options"
local compat = require "blockphys.compat"

local nbt = {}

--- Default nesting limit: the same as vanilla's reader, deep enough for any
-- real document and shallow enough that recursion cannot exhaust the C stack.
nbt.MAX_DEPTH = 512

--- Most values one document may decode into: list elements, compound entries and
-- int or long array elements, each a Lua value. Input bytes alone do not bound
-- memory (an empty compound in a list takes one byte, and a Lua table about 70),
-- so this does: at most about 600 MB. Byte arrays are strings and do not count.
-- Read at each decode, the schematic loaders' too.
nbt.MAX_VALUES = 8388608 -- 2^23

--- Tag type names, indexed by tag id.
-- @table TAG_NAMES
nbt.TAG_NAMES = reader.TAG_NAMES

--- Tag ids by name (`nbt.TAG.compound` is 10), the inverse of `TAG_NAMES`.
-- @table TAG
nbt.TAG = reader.TAG

-- decode with the entries to skip and the caps of `blockphys.nbt.reader.decode`.
local function decode_skipping(bytes, opts, skip, caps)
  if type(bytes) ~= "string" then
    return nil, "nbt: expected a string, got " .. type(bytes)
  end
  if opts ~= nil and type(opts) ~= "table" then
    return nil, "nbt: opts must be a table, got " .. type(opts)
  end
  local bad = options.unknown(opts, "max_depth")
  if bad then return nil, "nbt: " .. bad end
  local max_depth = opts and rawget(opts, "max_depth") -- raw: no metamethod can raise
  if max_depth == nil then
    max_depth = nbt.MAX_DEPTH
  elseif not compat.is_integer(max_depth) or max_depth < 0 then
    return nil, "nbt: opts.max_depth must be a non-negative integer"
  end
  return reader.decode(bytes, max_depth, nbt.MAX_VALUES, skip, caps)
end

--- Decodes one NBT document.
--
-- Bytes after the root tag are ignored (some tools pad files); compare the
-- fourth result with `#bytes` to detect them.
-- @tparam string bytes the uncompressed document
-- @tparam[opt] table opts `max_depth` (integer, default `nbt.MAX_DEPTH`):
--   deepest allowed nesting of lists and compounds
-- @treturn[1] string the root tag's name (usually "" or "Schematic")
-- @treturn[1] any the root value (a table for a compound root)
-- @treturn[1] string the root tag type name ("compound" for real files)
-- @treturn[1] integer number of bytes the document used
-- @return[2] nil
-- @treturn[2] string message naming the problem and its byte offset, or the bad
--   argument (`bytes` not a string, `opts` not a table or holding another key
--   than `max_depth`, `max_depth` not a non-negative integer); `decode` never
--   raises
-- @usage local name, root = nbt.decode(data)
-- if not name then error(root) end
function nbt.decode(bytes, opts)
  return decode_skipping(bytes, opts)
end

--- decode with `skip` and `caps` as `blockphys.nbt.reader.decode` takes them, for
-- the specs (spec/nbt_spec.lua); the schematic loaders call the reader directly.
-- @local
nbt._decode = decode_skipping

--- The element type name of a decoded list ("compound", "end", ...), or nil
-- when `t` is not a decoded list: `blockphys.nbt.reader.list_type`.
-- @function list_type
-- @tparam table t a value returned by `decode`
-- @treturn string|nil
nbt.list_type = reader.list_type

--- The NBT kind of a decoded table value: "list", "int_array",
-- "long_array" or "compound"; nil for non-tables: `blockphys.nbt.reader.kind`.
-- @function kind
-- @param v a value returned by `decode`
-- @treturn string|nil
nbt.kind = reader.kind

--- The exact bits of a decoded long array on every Lua: an array of 2n numbers, the
-- high then the low unsigned 32-bit half of each long (as decoded). Where Lua has no
-- 64-bit integers (5.1, 5.2, LuaJIT) a long array's own values are doubles, rounded
-- beyond ±2^53; these halves are not. `blockphys.nbt.reader.long_words`.
-- @function long_words
-- @tparam table array a long array returned by `decode`
-- @treturn table
nbt.long_words = reader.long_words

return nbt
