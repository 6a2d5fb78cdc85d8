--- Where a schematic's bytes come from, for `blockphys.schematic.load`: a file
-- path or the data itself, gzip-compressed (inflated through lua-zlib) or raw NBT.
--
-- A file is never read whole: gzip is inflated as it is read and raw NBT stops
-- past `max_bytes`, so a huge file (or /dev/zero) costs no more memory than the
-- bound. Nothing here raises: every failure is `nil, message`.
--
-- lua-zlib (Debian: lua-zlib) is optional: it is looked for once, when this module
-- loads, and gzip data without it gives a message; raw NBT needs nothing.
--
-- Source: our own.
--
-- @module blockphys.schematic.source
-- @local

local has_zlib, zlib = pcall(require, "zlib")

local source = {}

local format = string.format
local sub = string.sub
local concat = table.concat

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

-- The pieces of `src`, a function that releases them and whether `src` is the data
-- itself (not a path), or nil and a message. A
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
  return string_pieces(src), function() end, true
end

-- Size of each piece fed to zlib. Small enough that a maximal compression
-- ratio (about 1000:1) cannot overshoot `max_bytes` by more than ~16 MiB.
local INFLATE_PIECE = 16 * 1024
-- Bytes per read of raw NBT (file:read(n) allocates n bytes before it reads).
local READ_PIECE = 1024 * 1024

-- The inflated document from `first` and the pieces after it.
local function inflate_all(first, pieces, max_bytes)
  if not has_zlib then return nil, "gzip data needs lua-zlib (require \"zlib\" failed)" end
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
  if pieces == nil then -- the data itself, a string: not copied
    if #first > max_bytes then return nil, format("data exceeds %d bytes", max_bytes) end
    return first
  end
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

--- The NBT document of `src` (a path or data, gzip or raw NBT), or nil and a
-- message: an unreadable or unknown source, corrupted or truncated gzip, gzip
-- without lua-zlib, or more than `max_bytes` bytes (after inflating).
-- @tparam string src a file path or the file's bytes (see `blockphys.schematic.load`)
-- @tparam integer max_bytes largest document accepted
-- @treturn[1] string the document
-- @return[2] nil
-- @treturn[2] string message
function source.document(src, max_bytes)
  local pieces, close, is_data = open_source(src)
  if not pieces then return nil, close end -- close is the message then
  local first, err = pieces(INFLATE_PIECE)
  local data
  if sub(first or "", 1, 2) == GZIP_MAGIC then
    data, err = inflate_all(first, pieces, max_bytes)
  elseif sub(first or "", 1, 1) == NBT_COMPOUND then
    if is_data then -- raw NBT given as a string is the document itself
      data, err = read_all(src, nil, max_bytes)
    else
      data, err = read_all(first, pieces, max_bytes)
    end
  elseif not err then
    err = "not a schematic (expected gzip or NBT data)"
  end
  close()
  return data, err
end

return source
