--- What the Lua layer needs that differs between Lua 5.1, 5.2, 5.3, 5.4 and LuaJIT,
-- in one place (the binding's is csrc/binding/lcompat.h).
--
-- Lua 5.3 and 5.4 have 64-bit integers, `string.pack` and `string.unpack`; Lua 5.1,
-- 5.2 and LuaJIT have doubles only (integers exact up to 2^53) and neither function.
-- The Lua layer uses no bitwise operator and no `//` (syntax 5.1 cannot parse): its
-- integer maths is floor division and modulo by powers of two, which doubles do
-- exactly. Where the interpreter has `string.pack` and `string.unpack` they are used
-- as they are; elsewhere this module reads and writes the few formats the NBT reader
-- and the cell strings use, big-endian (`>` then any run of `i1 i2 i4 i8 I1 I2 I3 I4
-- f d`), exactly: an `i8` that does not fit a double's 53 bits is rounded there,
-- which is why NBT long arrays also keep their exact bits (`blockphys.nbt.long_words`).
--
-- Source: our own (IEEE 754 binary32 and binary64 for `f` and `d`).
--
-- @module blockphys.compat
-- @local

local compat = {}

-- No field of this module is a standard library C function itself (string.unpack,
-- ...): Lua names a C function that errs through pcall by the first place it finds it
-- in package.loaded, and a second place would make that name depend on hash order
-- (spec/errors_spec.lua). Such functions are wrapped, or kept one level down
-- (compat.bytes).

local byte, char, floor, huge = string.byte, string.char, math.floor, math.huge

local table_unpack = table.unpack or unpack -- luacheck: ignore 143

--- `table.unpack` (Lua 5.1 and LuaJIT: `unpack`).
function compat.unpack_table(t, i, j) return table_unpack(t, i or 1, j or #t) end

--- Whether numbers have an integer subtype (Lua 5.3 and 5.4).
compat.INTEGERS = math.type ~= nil

--- Whether `v` is an integer: `math.type(v) == "integer"` where Lua has integers,
-- else a number with an integral value in [-2^63, 2^63) (5.1, 5.2 and LuaJIT cannot
-- tell 1 from 1.0).
-- @param v any value
-- @treturn boolean
local is_integer
if compat.INTEGERS then
  local mtype = math.type
  is_integer = function(v) return mtype(v) == "integer" end
else
  is_integer = function(v)
    return type(v) == "number" and v == floor(v) and v >= -2 ^ 63 and v < 2 ^ 63
  end
end
compat.is_integer = is_integer

--- `math.tointeger(v)` where Lua has integers, else the number `v` (or a numeric
-- string's) when it is an integer (see `is_integer`), else nil.
-- @function tointeger
if compat.INTEGERS then
  local tointeger = math.tointeger
  compat.tointeger = function(v) return tointeger(v) end
else
  compat.tointeger = function(v)
    if type(v) == "string" then v = tonumber(v) end
    if is_integer(v) then return v end
  end
end

--- `#v`, with a table's `__len` metamethod on every Lua (5.1 and LuaJIT leave it to
-- userdata).
-- @function len
if compat.INTEGERS or _VERSION ~= "Lua 5.1" then
  compat.len = function(v) return #v end
else
  local getmt = debug.getmetatable
  compat.len = function(v)
    local mt = type(v) == "table" and getmt(v)
    local len = mt and mt.__len
    if len then return (len(v)) end
    return #v
  end
end

--- The zero byte in a pattern, where a pattern cannot hold it as it is: Lua 5.1 and
-- LuaJIT end a pattern at "\0" and match it with the class "%z" (deprecated since
-- 5.2, which takes "\0" itself); nil where "\0" works.
local nul_ok, nul_at = pcall(string.find, "\0", "[\0]")
compat.PATTERN_NUL = not (nul_ok and nul_at == 1) and "%z" or nil

--- `math.maxinteger` where Lua has integers, else 2^53 (the largest integer a
-- double holds with all those below it).
compat.MAX_INTEGER = math.maxinteger or 2 ^ 53

-- ------------------------------------------------------------------ our reader

-- An unsigned big-endian integer of n bytes at pos.
local function uint(s, pos, n)
  local v = 0
  for i = pos, pos + n - 1 do v = v * 256 + byte(s, i) end
  return v
end
compat.uint = uint

-- The signed 64-bit integer of two unsigned 32-bit halves, as a double (rounded
-- beyond 2^53 by the one addition).
local function int64(hi, lo)
  if hi >= 2147483648 then hi = hi - 4294967296 end
  return hi * 4294967296 + lo
end
compat.int64 = int64

local function float32(bits)
  local sign = bits >= 2147483648 and -1 or 1
  local e = floor(bits / 8388608) % 256
  local m = bits % 8388608
  if e == 255 then
    if m == 0 then return sign * huge end
    return 0 / 0
  elseif e == 0 then
    return sign * m * 2 ^ -149
  end
  return sign * (m + 8388608) * 2 ^ (e - 150)
end

local function float64(hi, lo)
  local sign = hi >= 2147483648 and -1 or 1
  local e = floor(hi / 1048576) % 2048
  local m = (hi % 1048576) * 4294967296 + lo -- < 2^52: exact
  if e == 2047 then
    if m == 0 then return sign * huge end
    return 0 / 0
  elseif e == 0 then
    return sign * m * 2 ^ -1074 -- m * 2^-1074 is a subnormal: exact
  end
  -- (2^52 + m) * 2^(e - 1075), in two exact steps (2^(e - 1075) alone may underflow)
  return sign * ((m + 4503599627370496) * 2 ^ -52) * 2 ^ (e - 1023)
end

local SIZES = { i1 = 1, i2 = 2, i4 = 4, i8 = 8, I1 = 1, I2 = 2, I3 = 3, I4 = 4, f = 4, d = 8 }

local READ = {
  i1 = function(s, p) local v = byte(s, p); return v >= 128 and v - 256 or v end,
  i2 = function(s, p) local v = uint(s, p, 2); return v >= 32768 and v - 65536 or v end,
  i4 = function(s, p) local v = uint(s, p, 4); return v >= 2147483648 and v - 4294967296 or v end,
  i8 = function(s, p) return int64(uint(s, p, 4), uint(s, p + 4, 4)) end,
  I1 = function(s, p) return byte(s, p) end,
  I2 = function(s, p) return uint(s, p, 2) end,
  I3 = function(s, p) return uint(s, p, 3) end,
  I4 = function(s, p) return uint(s, p, 4) end,
  f = function(s, p) return float32(uint(s, p, 4)) end,
  d = function(s, p) return float64(uint(s, p, 4), uint(s, p + 4, 4)) end,
}

-- A format as its codes, parsed once: ">" then codes of SIZES.
local parsed = setmetatable({}, { __mode = "k" })
local function codes_of(fmt)
  local codes = parsed[fmt]
  if codes then return codes end
  if fmt:sub(1, 1) ~= ">" then error("blockphys.compat: unsupported format " .. fmt, 3) end
  codes = {}
  local pos = 2
  while pos <= #fmt do
    local code = fmt:match("^[iI]%d", pos) or fmt:match("^[fd]", pos)
    if not code or not SIZES[code] then error("blockphys.compat: unsupported format " .. fmt, 3) end
    codes[#codes + 1] = code
    pos = pos + #code
  end
  parsed[fmt] = codes
  return codes
end

local unpack_table = table_unpack

-- string.unpack(fmt, s, pos) for our formats: the values, then the next position.
local function unpack(fmt, s, pos)
  pos = pos or 1
  local codes = codes_of(fmt)
  local n = #codes
  if n == 1 then
    local code = codes[1]
    local size = SIZES[code]
    if pos + size - 1 > #s then error("data string too short", 2) end
    return READ[code](s, pos), pos + size
  end
  local out = {}
  for i = 1, n do
    local code = codes[i]
    local size = SIZES[code]
    if pos + size - 1 > #s then error("data string too short", 2) end
    out[i] = READ[code](s, pos)
    pos = pos + size
  end
  out[n + 1] = pos
  return unpack_table(out, 1, n + 1)
end

-- string.pack(fmt, ...) for unsigned codes (I1 .. I4) only: the cell strings.
local function pack(fmt, ...)
  local codes, args = codes_of(fmt), { ... }
  local bytes = {}
  for i = 1, #codes do
    local n = SIZES[codes[i]]
    local v = args[i]
    for k = n, 1, -1 do
      bytes[#bytes + 1] = floor(v / 256 ^ (k - 1)) % 256
    end
  end
  return char(unpack_table(bytes))
end

-- The e with 2^(e-1) <= |x| < 2^e, for a finite x other than 0 (math.frexp's, which
-- Lua 5.4 may be built without).
local function exponent(x)
  if x < 0 then x = -x end
  local e = floor(math.log(x) / math.log(2)) + 1
  while 2 ^ (e - 1) > x do e = e - 1 end
  while 2 ^ e <= x do e = e + 1 end
  return e
end

-- A double rounded to the nearest binary32 (ties to even), as a double.
local function round_float32(x)
  if x ~= x or x == 0 or x == huge or x == -huge then return x end
  local e = exponent(x)
  if e < -125 then e = -125 end -- subnormals: the quantum stays 2^-149
  local q = 2 ^ (e - 24)
  local y = x / q -- exact: a power of two
  local f = floor(y)
  local d = y - f
  if d > 0.5 or (d == 0.5 and f % 2 == 1) then f = f + 1 end
  local r = f * q
  if r >= 2 ^ 128 or r <= -2 ^ 128 then return r > 0 and huge or -huge end
  return r
end

--- Numbers in strings: `compat.bytes.unpack` and `compat.bytes.pack` are
-- `string.unpack` and `string.pack` for the formats above (where Lua has them:
-- themselves; our own `pack` writes the unsigned codes only).
-- @table bytes
compat.bytes = {}
if string.pack then
  compat.bytes.unpack, compat.bytes.pack = string.unpack, string.pack
else
  compat.bytes.unpack, compat.bytes.pack = unpack, pack
end

--- A number rounded to single precision (IEEE binary32, ties to even).
-- @function float32
-- @tparam number x
-- @treturn number
if string.pack then
  local spack, sunpack = string.pack, string.unpack
  compat.float32 = function(x) return (sunpack("<f", spack("<f", x))) end
else
  compat.float32 = round_float32
end

-- Exposed for spec/compat_spec.lua, which checks them against string.pack where
-- Lua has it.
compat._own = { unpack = unpack, pack = pack, float32 = round_float32 }

return compat
