--- The NBT decoder behind `blockphys.nbt.decode` and the schematic loaders.
--
-- `blockphys.nbt` is its public face (options, limits, documentation of the
-- decoded values); the schematic loaders call `decode` here directly, with the
-- entries they skip and the palette caps they enforce, which the public `decode`
-- does not take. The limits are passed in, read from `blockphys.nbt` by the caller,
-- so that a script's change to `nbt.MAX_VALUES` holds for every decode.
--
-- The reader is written for hostile input: every length is checked against
-- the bytes that remain *before* anything proportional to it is allocated,
-- negative lengths are rejected, nesting is limited, and no Lua error
-- escapes `decode`.
--
-- Source: the NBT format as the Minecraft Wiki's "NBT format" page describes it
-- (our own reader).
--
-- @module blockphys.nbt.reader
-- @local

local compat = require "blockphys.compat"

local reader = {}

local unpack = compat.bytes.unpack
local uint, int64 = compat.uint, compat.int64
local sub, byte = string.sub, string.byte
local format = string.format
local concat = table.concat
local setmetatable = setmetatable
local getmetatable = getmetatable

--- Tag type names, indexed by tag id.
-- @table TAG_NAMES
local TAG_NAMES = {
  [0] = "end", "byte", "short", "int", "long", "float", "double",
  "byte_array", "string", "list", "compound", "int_array", "long_array",
}
reader.TAG_NAMES = TAG_NAMES

--- Tag ids by name (`TAG.compound` is 10), the inverse of `TAG_NAMES`.
-- @table TAG
local TAG = {}
for id = 0, #TAG_NAMES do TAG[TAG_NAMES[id]] = id end
reader.TAG = TAG

-- The smallest number of payload bytes a tag of each type can occupy. A list
-- claiming n elements needs at least n * MIN_SIZE[type] bytes, which lets us
-- reject a hostile count before looping over it.
local MIN_SIZE = {
  [0] = 0, 1, 2, 4, 8, 4, 8,
  4, -- byte_array: its length prefix
  2, -- string: its length prefix
  5, -- list: element type + count
  1, -- compound: its End tag
  4, 4, -- int/long arrays: length prefix
}

-- One shared metatable per list element type, so a list costs no extra
-- table and `list_type` is a single lookup.
local LIST_MT = {}
for id = 0, #TAG_NAMES do
  LIST_MT[id] = { __name = "nbt.List", element = TAG_NAMES[id] }
end
local INT_ARRAY_MT = { __name = "nbt.IntArray" }
local LONG_ARRAY_MT = { __name = "nbt.LongArray" }

-- The exact halves of the long arrays decoded where Lua has no 64-bit integers
-- (see reader.long_words), by array.
local WORDS = setmetatable({}, { __mode = "k" })

-- A decoding failure travels as this table through `error` so that `decode`
-- can tell our own messages from unexpected Lua errors.
local Failure = {}

local function fail(msg, ...)
  error(setmetatable({ msg = format(msg, ...) }, Failure), 0)
end

-- Reader state: the byte string, the next position (1-based), the limits and
-- the values counted so far. Kept in a table so the helpers stay small.
--
-- A document may arrive in pieces (r.more, see reader.decode): the bytes read so
-- far are r.data, and `fill` appends pieces until n bytes lie past r.pos or the
-- document has ended. It at least doubles r.data each time, so that the copies cost
-- O(document) in all; a failure of the source (its message in a Failure marked
-- `source`) ends the decode as it is met. Once the document has ended, r.len is its
-- length and every message is what a decode of the whole string gives.
local function fill(r, n)
  local more = r.more
  if not more or r.len - r.pos + 1 >= n then return end
  local parts, total = { r.data }, r.len
  local want = r.pos - 1 + n
  if want < 2 * r.len then want = 2 * r.len end
  while total < want do
    local piece, err = more()
    if piece == nil then
      r.more = nil
      if err then error(setmetatable({ msg = err, source = true }, Failure), 0) end
      break
    end
    parts[#parts + 1] = piece
    total = total + #piece
  end
  r.data = concat(parts)
  r.len = total
end

local function need(r, n, what)
  local left = r.len - r.pos + 1
  if n > left then
    fill(r, n)
    left = r.len - r.pos + 1
    if n > left then
      fail("truncated %s at byte %d: need %d bytes, %d left", what, r.pos - 1, n, left)
    end
  end
end

local function read_fixed(r, fmt, size, what)
  need(r, size, what)
  local v = unpack(fmt, r.data, r.pos)
  r.pos = r.pos + size
  return v
end

-- Reads a signed 32-bit length prefix.
local function read_count(r, what)
  local n = read_fixed(r, ">i4", 4, what .. " length")
  if n < 0 then
    fail("negative %s length %d at byte %d", what, n, r.pos - 5)
  end
  return n
end

-- Checks that n elements of `elem_size` bytes each fit in what remains, right
-- after their length prefix.
local function check_fits(r, n, elem_size, what)
  fill(r, n * elem_size)
  local left = r.len - r.pos + 1
  if n * elem_size > left then
    fail("%s length %d at byte %d exceeds the %d bytes left", what, n, r.pos - 5, left)
  end
end

-- Reads a signed 32-bit length prefix and checks that `count` elements of
-- `elem_size` bytes each fit in what remains.
local function read_length(r, elem_size, what)
  local n = read_count(r, what)
  check_fits(r, n, elem_size, what)
  return n
end

local function read_string(r)
  local n = read_fixed(r, ">I2", 2, "string length")
  need(r, n, "string")
  local s = sub(r.data, r.pos, r.pos + n - 1)
  r.pos = r.pos + n
  return s
end

-- Counts n more decoded values against r.max_values (the caller's nbt.MAX_VALUES).
local function add_values(r, n, at)
  r.values = r.values + n
  if r.values > r.max_values then
    fail("more than %d values (nbt.MAX_VALUES) at byte %d", r.max_values, at)
  end
end

-- string.unpack returns every value on the Lua stack, so large arrays are
-- read in slices of this many elements to stay far below the stack limit.
local SLICE = 256

local function read_number_array(r, code, size, what, mt)
  local n = read_length(r, size, what)
  add_values(r, n, r.pos - 5) -- at the length
  local out = setmetatable({}, mt)
  local data, pos = r.data, r.pos
  if size == 8 and not compat.INTEGERS then
    -- doubles cannot hold every long: the values (rounded beyond 2^53) and, for
    -- long_words, their exact halves
    local words = {}
    for i = 1, n do
      local hi, lo = uint(data, pos, 4), uint(data, pos + 4, 4)
      words[2 * i - 1], words[2 * i] = hi, lo
      out[i] = int64(hi, lo)
      pos = pos + 8
    end
    WORDS[out] = words
    r.pos = pos
    return out
  end
  local full_fmt = ">" .. string.rep(code, SLICE)
  local i = 0
  while i < n do
    local k = n - i
    if k > SLICE then k = SLICE end
    local fmt = k == SLICE and full_fmt or ">" .. string.rep(code, k)
    local vals = { unpack(fmt, data, pos) }
    for j = 1, k do out[i + j] = vals[j] end
    pos = pos + k * size
    i = i + k
  end
  r.pos = pos
  return out
end

local read_payload -- forward declaration: lists and compounds recurse

-- A list's element type and length; the caller checks that its elements fit
-- (check_list_fits), its cap and its values: admit_list.
local function read_list_header(r)
  local elem = read_fixed(r, ">i1", 1, "list element type")
  if elem < 0 or elem > #TAG_NAMES then
    fail("unknown list element type %d at byte %d", elem, r.pos - 2)
  end
  local n = read_count(r, "list")
  -- A list of End tags has no payload per element; only the empty one is
  -- meaningful, and a large count would otherwise loop for free.
  if elem == TAG["end"] and n > 0 then
    fail("list of type end with %d elements at byte %d", n, r.pos - 6)
  end
  return elem, n
end

local function check_list_fits(r, elem, n)
  check_fits(r, n, MIN_SIZE[elem], "list")
end

-- Checks a list just past its header (element type elem, length n): its elements
-- fit, then its cap (`cap`, naming it `name`), then counts its n values when
-- `count`. That is the order a whole document has always been checked in; but when
-- the elements lie past the bytes at hand of a document still arriving (r.more),
-- the cap and the values come first, so that a list past them is refused at its
-- length without reading (inflating) the bytes it claims.
local function admit_list(r, elem, n, cap, name, count)
  local ahead = r.more ~= nil and n * MIN_SIZE[elem] > r.len - r.pos + 1
  if not ahead then check_list_fits(r, elem, n) end
  if cap and n > cap then
    fail("list %s of %d entries (at most %d) at byte %d", name, n, cap, r.pos - 6)
  end
  if count then
    add_values(r, n, r.pos - 6) -- at the element type, as read_list_header's messages
  end
  if ahead then check_list_fits(r, elem, n) end
end

-- The entries a container named `name` may hold (r.caps, see decode), or nil.
local function cap_of(r, name)
  return r.caps and name and r.caps[name]
end

-- A list named `name` (for messages) holding at most `cap` entries (default: its
-- name's cap). Element i of a list whose name has a `name[]` cap is read as a
-- container named `name[i]` (0-based, as the messages count) with that cap.
local function read_list(r, depth, name, cap)
  local elem, n = read_list_header(r)
  admit_list(r, elem, n, cap or cap_of(r, name), name, true)
  local out = setmetatable({}, LIST_MT[elem])
  local elem_cap = name and cap_of(r, name .. "[]")
  local join = r.joins and name and r.joins[name]
  for i = 1, n do
    local at = r.pos - 1
    local v = read_payload(r, elem, depth, nil, elem_cap and format("%s[%d]", name, i - 1), elem_cap)
    out[i] = v
    if join then
      -- one more distinct entry of all the lists so named (see decode's `joins`)
      local key = join.key(v)
      if key ~= nil and not join.seen[key] then
        join.seen[key] = true
        join.count = join.count + 1
        if join.count > join.max then
          fail("joined lists %s of more than %d distinct entries at byte %d", name, join.max, at)
        end
      end
    end
  end
  return out
end

local skip_payload -- forward declaration: a skipped container recurses

-- Moves past a string as read_string reads it (the same checks and messages),
-- without making it.
local function skip_string(r)
  local n = read_fixed(r, ">I2", 2, "string length")
  need(r, n, "string")
  r.pos = r.pos + n
end

-- Moves past a compound's entries without building them (see r.skip). Each entry
-- counts one value, as it would if it were read.
local function skip_compound(r, depth)
  while true do
    need(r, 1, "tag type") -- read_fixed's check, then the signed byte without unpack
    local id = byte(r.data, r.pos) -- after need: it may have grown r.data
    if id > 127 then id = id - 256 end
    r.pos = r.pos + 1
    if id == TAG["end"] then return end
    if id < 0 or id > #TAG_NAMES then
      fail("unknown tag type %d at byte %d", id, r.pos - 2)
    end
    add_values(r, 1, r.pos - 2) -- at the tag type, as read_compound
    skip_string(r)
    skip_payload(r, id, depth)
  end
end

-- A compound named `name`, holding at most `cap` entries (default: its name's cap).
local function read_compound(r, depth, keep_all, name, cap)
  local out, n = {}, 0
  cap = cap or cap_of(r, name)
  while true do
    local id = read_fixed(r, ">i1", 1, "tag type")
    if id == TAG["end"] then return out end
    if id < 0 or id > #TAG_NAMES then
      fail("unknown tag type %d at byte %d", id, r.pos - 2)
    end
    n = n + 1
    if cap and n > cap then
      fail("compound %s of more than %d entries at byte %d", name, cap, r.pos - 2)
    end
    add_values(r, 1, r.pos - 2) -- at the tag type
    local key = read_string(r)
    local skip = r.skip
    if skip and not keep_all and skip[key] == id then
      skip_payload(r, id, depth) -- checked as strictly, left out of the result
    else
      -- Duplicate names are malformed but harmless: the last one wins, as in
      -- vanilla's map-backed compound.
      out[key] = read_payload(r, id, depth, skip and skip[1] == key, key)
    end
  end
end

-- Containers are where depth grows: one more level must stay within r.max_depth.
local function check_depth(r, depth)
  if depth >= r.max_depth then
    fail("nesting deeper than %d at byte %d", r.max_depth, r.pos - 1)
  end
end

local SCALARS = {
  [1] = { ">i1", 1 }, [2] = { ">i2", 2 }, [3] = { ">i4", 4 },
  [4] = { ">i8", 8 }, [5] = { ">f", 4 }, [6] = { ">d", 8 },
}

function read_payload(r, id, depth, keep_all, name, cap)
  local scalar = SCALARS[id]
  if scalar then
    return read_fixed(r, scalar[1], scalar[2], TAG_NAMES[id])
  elseif id == TAG.byte_array then
    local n = read_length(r, 1, "byte array")
    local s = sub(r.data, r.pos, r.pos + n - 1)
    r.pos = r.pos + n
    return s
  elseif id == TAG.string then
    return read_string(r)
  elseif id == TAG.int_array then
    return read_number_array(r, "i4", 4, "int array", INT_ARRAY_MT)
  elseif id == TAG.long_array then
    return read_number_array(r, "i8", 8, "long array", LONG_ARRAY_MT)
  end
  -- Only containers are left; they are where depth grows.
  check_depth(r, depth)
  if id == TAG.list then
    return read_list(r, depth + 1, name, cap)
  elseif id == TAG.compound then
    return read_compound(r, depth + 1, keep_all, name, cap)
  end
  fail("unexpected tag type %d at byte %d", id, r.pos - 1)
end

local ARRAYS = { [TAG.byte_array] = { 1, "byte array" }, [TAG.int_array] = { 4, "int array" },
                 [TAG.long_array] = { 8, "long array" } }

-- Moves past one payload, checking it as read_payload does but building no value.
-- What it visits one by one counts against MAX_VALUES as if it were read: each
-- compound entry, and each element of a list of strings, arrays, lists or
-- compounds; so a skipped entry costs no more work per value than a read one. A
-- list of numbers or an array is passed over in one step and counts nothing.
function skip_payload(r, id, depth)
  local scalar = SCALARS[id]
  if scalar then
    need(r, scalar[2], TAG_NAMES[id])
    r.pos = r.pos + scalar[2]
    return
  end
  local array = ARRAYS[id]
  if array then
    local n = read_length(r, array[1], array[2]) -- moves past the length first
    r.pos = r.pos + n * array[1]
    return
  elseif id == TAG.string then
    skip_string(r)
    return
  end
  check_depth(r, depth)
  if id == TAG.list then
    local elem, n = read_list_header(r)
    admit_list(r, elem, n, nil, nil, not SCALARS[elem]) -- a list of numbers counts nothing
    if SCALARS[elem] then
      r.pos = r.pos + n * SCALARS[elem][2]
    else
      for _ = 1, n do skip_payload(r, elem, depth + 1) end
    end
  elseif id == TAG.compound then
    skip_compound(r, depth + 1)
  else
    fail("unexpected tag type %d at byte %d", id, r.pos - 1)
  end
end

local function decode_root(r)
  local id = read_fixed(r, ">i1", 1, "root tag type")
  if id == TAG["end"] then fail("document has no root tag") end
  if id < 0 or id > #TAG_NAMES then
    -- 0x1f 0x8b opens a gzip stream: a compressed file handed to the wrong reader.
    if id == 0x1f and r.data:byte(2) == 0x8b then
      fail("gzip-compressed data (inflate it first, or use blockphys.schematic.load)")
    end
    fail("unknown root tag type %d", id)
  end
  local name = read_string(r)
  local value = read_payload(r, id, 0)
  return name, value, id
end

--- Decodes one NBT document (the body of `blockphys.nbt.decode`, whose
-- documentation gives the results).
--
-- Entries of a compound whose name is a key of `skip` and whose tag type is its
-- value are left out of the result (their bytes are still checked, and what the
-- skip visits one by one counts against `max_values`, see skip_payload): the
-- schematic loaders skip block entities, entities and ticks, which they never read.
-- The entries of a compound named `skip[1]` are all kept (Litematica's `Regions`,
-- whose keys are names users choose).
-- `caps` maps a name to the most entries a list or compound of that name may hold
-- (`"name[]"`: each element of a list named `name`, for a list of lists): a loader
-- refuses an oversized palette as soon as it reads its length (a list) or the entry
-- past the cap (a compound), not after decoding millions of entries.
-- `joins` maps a list name to `{max = n, key = function(element)}`: the distinct
-- keys (non-nil results of `key`, which must not raise) of the elements of all the
-- lists so named, taken together, are at most `max`. The document is refused at the
-- element past that (Litematica's regions' palettes, which `load` joins into one).
-- `more`, when given, is where the rest of the document comes from: `bytes` is then
-- its first piece, and each call `more()` gives the next (a non-empty string), nil
-- at the end, or nil and a message when the source fails (a gzip stream past its
-- size bound, corrupted or cut short). The pieces are read only as far as the
-- decode needs them, so a document refused early (its value budget, a cap, a bad
-- tag) is never read whole; a failure of the source is returned as its own message.
-- @tparam string bytes the uncompressed document (or its first piece)
-- @tparam integer max_depth deepest nesting of lists and compounds
-- @tparam integer max_values most values the document may decode into
-- @tparam[opt] table skip
-- @tparam[opt] table caps
-- @tparam[opt] table joins
-- @tparam[opt] function more the rest of the document, piece by piece
-- @treturn[1] string the root tag's name
-- @treturn[1] any the root value
-- @treturn[1] string the root tag type name
-- @treturn[1] integer number of bytes the document used
-- @return[2] nil
-- @treturn[2] string message starting with `"nbt: "` (or the source's message);
--   never raises
function reader.decode(bytes, max_depth, max_values, skip, caps, joins, more)
  local r = { data = bytes, pos = 1, len = #bytes, max_depth = max_depth, values = 0,
              max_values = max_values, skip = skip, caps = caps, more = more }
  if joins then -- this decode's own count of each join's keys
    r.joins = {}
    for name, j in pairs(joins) do
      r.joins[name] = { max = j.max, key = j.key, seen = {}, count = 0 }
    end
  end
  local ok, name, value, id = pcall(decode_root, r)
  if ok then return name, value, TAG_NAMES[id], r.pos - 1 end
  if getmetatable(name) == Failure then
    return nil, name.source and name.msg or "nbt: " .. name.msg
  end
  -- Not one of ours (for example "C stack overflow" if a caller raised
  -- max_depth too far): still report it as a failed decode.
  return nil, "nbt: " .. tostring(name)
end

--- The element type name of a decoded list ("compound", "end", ...), or nil
-- when `t` is not a decoded list.
-- @tparam table t a value returned by `decode`
-- @treturn string|nil
-- Source: our own (the NBT tag names of the format's specification).
function reader.list_type(t)
  local mt = type(t) == "table" and getmetatable(t)
  return mt and LIST_MT[TAG[mt.element]] == mt and mt.element or nil
end

--- The exact bits of a decoded long array: an array of 2n numbers, the high then the
-- low unsigned 32-bit half of each long, as decoded (`blockphys.nbt.long_words`).
-- @tparam table arr a long array returned by `decode`
-- @treturn table
-- Source: our own.
function reader.long_words(arr)
  local w = WORDS[arr]
  if w then return w end
  w = {}
  for i = 1, #arr do -- 64-bit integers: exact (v - lo is a multiple of 2^32 below 2^63)
    local v = arr[i]
    local lo = v % 4294967296
    w[2 * i - 1], w[2 * i] = ((v - lo) / 4294967296) % 4294967296, lo
  end
  return w
end

--- The NBT kind of a decoded table value: "list", "int_array",
-- "long_array" or "compound"; nil for non-tables.
-- @param v a value returned by `decode`
-- @treturn string|nil
-- Source: our own.
function reader.kind(v)
  if type(v) ~= "table" then return nil end
  local mt = getmetatable(v)
  if mt == INT_ARRAY_MT then return "int_array" end
  if mt == LONG_ARRAY_MT then return "long_array" end
  if reader.list_type(v) then return "list" end
  return "compound"
end

return reader
