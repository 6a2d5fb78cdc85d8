-- luacheck: std +busted
-- The Lua snippets of README.md and of every docs/*.md run as a new user would paste
-- them into the REPL: file by file, in the file's order, every line its own chunk (a
-- statement left open continues on the next line, as lua5.4's REPL does), globals
-- shared between the snippets of one file (each file starts afresh).
--
-- Fence convention of the documentation:
--   ```lua         run by this spec: it must run without error
--   ```lua norun   Lua that is not meant to run (a signature, a fragment with `...`,
--                  code that needs a game's window); still highlighted as Lua
--   ```sh, ```text and any other tag: not Lua, not run
-- Any other word after ```lua is refused, so that a typo cannot hide a snippet.
--
-- Expected output: a line that ends a statement may end with `--> text`; what that
-- statement printed (each print's values through tostring, separated by tabs; several
-- prints joined by newlines) must equal text. A following line holding only
-- `--> more` continues the expected text on a new line.
--
-- Besides, a few snippets are checked value by value below (the README's quick start,
-- the MC-CPP frame of docs/mccpp.md, the lobby paste of docs/schematics.md, which
-- reads examples/data/limbo_spawn.schem).
local H = require "helpers.world"
local C = require "helpers.compat"

-- The documentation's files: the README, then docs/*.md in name order.
local function doc_files()
  local files = { "README.md" }
  local p = assert(io.popen("ls docs/*.md 2>/dev/null"))
  local docs = {}
  for name in p:lines() do docs[#docs + 1] = name end
  p:close()
  table.sort(docs)
  for _, name in ipairs(docs) do files[#files + 1] = name end
  return files
end

-- A fence line (as CommonMark has it for backticks): up to three spaces, three or
-- more backticks, and an info string without backticks (so a line that starts with
-- inline code such as ```` ```lua ```` is text). Returns the info string.
local function fence(line)
  local info = line:match("^ ? ? ?```+([^`]*)$")
  return info and info:match("^%s*(.-)%s*$")
end

-- The ```lua blocks of a file, in order: { first_line = n, lines = {...} }; raises
-- for a ```lua fence with an unknown word after it.
local function lua_blocks(text, name)
  local blocks, current, in_other, n = {}, nil, false, 0
  for line in (text .. "\n"):gmatch("(.-)\r?\n") do
    n = n + 1
    local info = fence(line)
    if current then
      if info == "" then
        blocks[#blocks + 1] = current
        current = nil
      else
        current.lines[#current.lines + 1] = line
      end
    elseif in_other then
      if info == "" then in_other = false end
    elseif info == "lua" then
      current = { first_line = n + 1, lines = {} }
    elseif info then
      if info:match("^lua") and info ~= "lua norun" then
        error(("%s:%d: unknown fence '```%s' (use ```lua or ```lua norun)"):format(name, n, info), 0)
      end
      in_other = true
    end
  end
  if current or in_other then error(name .. ": a code fence is never closed", 0) end
  return blocks
end

-- Run one block line by line in env, as the REPL does. printed receives what each
-- print wrote; checks every `--> text` expectation.
local function run_block(block, env, printed, name)
  local pending_src, start = nil, nil
  local expect_at -- { line, text, got }: the last expectation, which `-->` lines extend
  for i, line in ipairs(block.lines) do
    local n = block.first_line + i - 1
    local more = line:match("^%s*%-%->%s?(.*)$")
    if more and not pending_src then
      assert(expect_at, ("%s:%d: '-->' continues no expectation"):format(name, n))
      expect_at.text = expect_at.text .. "\n" .. more
    else
      local src = pending_src and (pending_src .. "\n" .. line) or line
      start = start or n
      local chunk, err = C.load(src, "=" .. name .. ":" .. start, "t", env)
      if chunk then
        if expect_at then
          assert.equal(C.printed(expect_at.text), C.printed(expect_at.got),
            ("%s:%d: printed output"):format(name, expect_at.line))
          expect_at = nil
        end
        local first = #printed + 1
        chunk()
        local text = line:match("%-%->%s?(.*)$")
        if text then
          local lines = {}
          for k = first, #printed do
            local p = printed[k]
            local parts = {}
            for j = 1, p.n do parts[j] = tostring(p[j]) end
            lines[#lines + 1] = table.concat(parts, "\t")
          end
          expect_at = { line = n, text = text, got = table.concat(lines, "\n") }
        end
        pending_src, start = nil, nil
      elseif err:match("<eof>'?$") then -- Lua 5.1 quotes it
        pending_src = src -- an open statement: the REPL reads the next line
      else
        error(err, 0)
      end
    end
  end
  if expect_at then
    assert.equal(C.printed(expect_at.text), C.printed(expect_at.got),
      ("%s:%d: printed output"):format(name, expect_at.line))
  end
  assert(pending_src == nil, name .. ":" .. tostring(start) .. ": a statement left open")
end

-- Run every block of a file in a fresh environment; returns the environment and the
-- list of what print received.
local function run_file(name)
  local text = assert(H.read_file(name), name .. " is missing")
  local printed = {}
  local env = setmetatable({}, { __index = _G })
  env.print = function(...) printed[#printed + 1] = C.pack_table(...) end
  for _, block in ipairs(lua_blocks(text, name)) do
    run_block(block, env, printed, name)
  end
  return env, printed
end

-- Checks beyond the `-->` comments, per file.
local checks = {}

checks["README.md"] = function(_, printed)
  -- Quick start: walked along +Z and stepped up onto the slab (y = 64.5), on the
  -- ground, x unchanged (yaw 0 faces +Z), past the slab's near edge at z = 3.
  local q = printed[1]
  assert.same({ 0.5, 64.5 }, { q[1], q[2] })
  assert.is_true(q[3] > 3 + H.F.half_width and q[3] < 7)
  assert.is_true(q[4])
end

checks["docs/mccpp.md"] = function(env)
  -- MC-CPP: one frame of 1/60 s and an interpolated position, all finite.
  for _, v in ipairs{ env.x, env.y, env.z } do
    -- a float where Lua has integers; finite
    assert.is_true((C.mtype(v) == "float" or not C.INTEGERS and type(v) == "number") and v - v == 0)
  end
end

checks["docs/schematics.md"] = function(_, printed)
  -- The lobby: every block placed (lobby_spec counts 2,176), none guessed.
  assert.same({ 2176, 0 }, { printed[1][1], printed[1][2] })
end

local files = doc_files()

-- GitHub's anchor of a heading: lower case, punctuation other than '-' and '_'
-- dropped, spaces made '-'; a repeated anchor gets -1, -2 ... (ASCII headings only).
local function anchors_of(text)
  local set, seen, in_code = {}, {}, false
  for line in (text .. "\n"):gmatch("(.-)\r?\n") do
    if fence(line) then
      in_code = not in_code
    elseif not in_code then
      local heading = line:match("^#+%s+(.-)%s*$")
      if heading then
        -- GitHub's anchors: lower case, punctuation dropped, spaces to hyphens; letters
        -- beyond ASCII kept (UTF-8 bytes >= 0x80), the capitals of Latin-1 (U+00C0 to
        -- U+00DE but for U+00D7, "\195\128" to "\195\158") lowered as GitHub does.
        local slug = heading:lower()
          :gsub("\195([\128-\158])", function(c)
            return c == "\151" and "\195\151" or "\195" .. string.char(c:byte() + 32)
          end)
          :gsub("[^%w%s%-_\128-\255]", ""):gsub("%s", "-")
        local n = seen[slug]
        seen[slug] = (n or 0) + 1
        set[n and (slug .. "-" .. n) or slug] = true
      end
    end
  end
  return set
end

-- The relative links of a Markdown text outside code: { target, line }.
local function links_of(text)
  local found, in_code, n = {}, false, 0
  for line in (text .. "\n"):gmatch("(.-)\r?\n") do
    n = n + 1
    if fence(line) then
      in_code = not in_code
    elseif not in_code then
      for target in line:gsub("`[^`]*`", ""):gmatch("%]%(([^)%s]+)%)") do
        if not target:match("^%a[%w+.-]*:") then found[#found + 1] = { target, n } end
      end
    end
  end
  return found
end

describe("the documentation's Lua snippets", function()
  it("are found: the README's require line and quick start, and the guides of docs/", function()
    local blocks = lua_blocks(assert(H.read_file("README.md")), "README.md")
    assert.is_true(#blocks >= 2)
    assert.equal('local bp = require "blockphys"', blocks[1].lines[1])
    for name in pairs(checks) do
      local found = false
      for _, f in ipairs(files) do found = found or f == name end
      assert.is_true(found, name .. " is missing")
    end
  end)

  it("refuse an unknown ```lua fence tag and a fence left open", function()
    -- (pcall, not assert.has_error, which strips a leading "t.md:1: " from the message)
    assert.same({ false, "t.md:1: unknown fence '```lua skip' (use ```lua or ```lua norun)" },
      { pcall(lua_blocks, "```lua skip\nx = 1\n```\n", "t.md") })
    assert.same({ false, "t.md: a code fence is never closed" }, { pcall(lua_blocks, "```lua\nx = 1\n", "t.md") })
    assert.same({}, lua_blocks("```lua norun\nx = ...\n```\n```sh\nmake\n```\n", "t.md"))
    assert.same({}, lua_blocks("```` ```lua ```` is inline code\n", "t.md"))
  end)

  it("check what a '-->' comment says was printed", function()
    local env = setmetatable({}, { __index = _G })
    local printed = {}
    env.print = function(...) printed[#printed + 1] = C.pack_table(...) end
    run_block({ first_line = 1, lines = { "print(1, 2) --> 1\t2", "print(3)", "print(4)  --> 4" } },
      env, printed, "t.md")
    run_block({ first_line = 1, lines = { "for i = 1, 2 do", "print(i) end --> 1", "--> 2" } },
      env, printed, "t.md")
    assert.has_error(function()
      run_block({ first_line = 1, lines = { "print(5) --> 6" } }, env, printed, "t.md")
    end)
  end)

  it("link to files and sections that exist (relative links of the README and the guides)", function()
    for _, name in ipairs(files) do
      local dir = name:match("^(.*/)") or ""
      for _, link in ipairs(links_of(assert(H.read_file(name)))) do
        local target, line = link[1], link[2]
        local file, anchor = target:match("^([^#]*)#?(.*)$")
        local path = file == "" and name or (dir .. file):gsub("[^/]+/%.%./", "")
        local where = ("%s:%d: link %s"):format(name, line, target)
        local text = H.read_file(path)
        local folder = io.open((path:match("^(.*)/") or ".") .. "/.")
        if folder then folder:close() end
        if not text and not folder and path:match("^docs/img/") then
          -- the figures are made by `make plots`; checked once docs/img/ exists
          text = ""
        elseif not text and path:match("^build/docs/") then
          -- the HTML reference is made by `make docs` (CI runs it and checks its pages);
          -- a fresh clone has none yet
          text = ""
        elseif not text then -- a folder is fine too
          local p = io.open(path .. "/.")
          assert(p or text, where .. ": no such file")
          if p then p:close() end
        end
        if anchor ~= "" then
          assert(path:match("%.md$") and text, where .. ": an anchor into a file that is not Markdown")
          assert.is_true(anchors_of(text)[anchor] == true, where .. ": no such section")
        end
      end
    end
  end)

  for _, name in ipairs(files) do
    it("of " .. name .. " run in order in one REPL session and print what their comments say", function()
      local env, printed = run_file(name)
      if checks[name] then checks[name](env, printed) end
    end)
  end
end)
