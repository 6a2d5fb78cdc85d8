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

-- Size of each piece fed to zlib. Small enough that a maximal compression ratio
-- (about 1000:1) cannot overshoot `max_bytes` by more than ~4 MiB, nor inflate
-- more than that before a decode refuses a document at its first bytes.
local INFLATE_PIECE = 4 * 1024
-- Bytes per read of raw NBT (file:read(n) allocates n bytes before it reads).
local READ_PIECE = 1024 * 1024

-- The document inflated from the gzip stream `first` and the pieces after it, as a
-- function giving its pieces in order (each non-empty), then nil at its end, or nil
-- and the message of the first failure: past `max_bytes`, corrupted, cut short, or
-- unreadable. A piece that came before a failure is given first. After the end or a
-- failure every call gives the same answer again.
local function inflated(first, pieces, max_bytes)
  local stream = zlib.inflate()
  local total, piece = 0, first
  local finished, failed = false, nil
  return function()
    while true do
      if failed then return nil, failed end
      if finished then return nil end
      if piece == nil then
        failed = "truncated gzip data (stream ends early)"
      else
        local ok, out, done = pcall(stream, piece)
        if not ok then
          failed = "corrupted gzip data (" .. tostring(out) .. ")"
        else
          total = total + #out
          if total > max_bytes then
            failed = format("decompressed data exceeds %d bytes", max_bytes)
          else
            if done then
              finished = true -- bytes after the end of the gzip member (padding) are not read
            else
              local err
              piece, err = pieces(INFLATE_PIECE)
              if err then failed = err end
            end
            if #out > 0 then return out end
          end
        end
      end
    end
  end
end

-- The raw document from `first` and the pieces after it, as `inflated` gives it.
local function raw(first, pieces, max_bytes)
  local total, piece = 0, first
  local failed = nil
  return function()
    if failed then return nil, failed end
    if piece == nil then return nil end
    total = total + #piece
    if total > max_bytes then
      failed = format("data exceeds %d bytes", max_bytes)
      return nil, failed
    end
    local out = piece
    local next_piece, err = pieces(READ_PIECE)
    piece = next_piece
    if err then failed = err end
    return out
  end
end

--- The NBT document of `src` (a path or data, gzip or raw NBT), to be read piece
-- by piece as a decode needs it (`blockphys.nbt.reader.decode`'s `bytes` and
-- `more`), so that a document refused early is never inflated or read whole.
-- Returns the bytes at hand (the whole document for raw NBT given as a string), the
-- function giving the rest (nil when there is none) and a function that releases
-- the file; or nil and a message: an unreadable or unknown source, gzip without
-- lua-zlib, raw NBT data past `max_bytes`. The rest's own failures (corrupted or
-- truncated gzip, more than `max_bytes` bytes after inflating, a read error) come
-- from `more`; `source.finish` reads what a decode left, to report them for a
-- document that decoded.
-- @tparam string src a file path or the file's bytes (see `blockphys.schematic.load`)
-- @tparam integer max_bytes largest document accepted
-- @treturn[1] string the first bytes of the document
-- @treturn[1] function|nil more
-- @treturn[1] function close
-- @return[2] nil
-- @treturn[2] string message
function source.open(src, max_bytes)
  local pieces, close, is_data = open_source(src)
  if not pieces then return nil, close end -- close is the message then
  local first, err = pieces(INFLATE_PIECE)
  local fail
  if sub(first or "", 1, 2) == GZIP_MAGIC then
    if has_zlib then return "", inflated(first, pieces, max_bytes), close end
    fail = "gzip data needs lua-zlib (require \"zlib\" failed)"
  elseif sub(first or "", 1, 1) == NBT_COMPOUND then
    if not is_data then return "", raw(first, pieces, max_bytes), close end
    -- raw NBT given as a string is the document itself: not copied
    if #src <= max_bytes then return src, nil, close end
    fail = format("data exceeds %d bytes", max_bytes)
  else
    fail = err or "not a schematic (expected gzip or NBT data)"
  end
  close()
  return nil, fail
end

--- Reads what a decode left of a document (`more` from `source.open`) to its end:
-- true, or nil and the message of the failure met there (past `max_bytes`,
-- corrupted or truncated gzip), which a whole read of the document would have
-- reported before decoding it.
-- @tparam function|nil more
-- @treturn[1] boolean true
-- @return[2] nil
-- @treturn[2] string message
function source.finish(more)
  if not more then return true end
  while true do
    local piece, err = more()
    if piece == nil then
      if err then return nil, err end
      return true
    end
  end
end

return source
