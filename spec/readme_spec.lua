-- luacheck: std +busted
-- The README's Lua snippets run as a new user would paste them into the REPL: in
-- the README's order, every line its own chunk (a statement left open continues on
-- the next line, as lua5.4's REPL does), globals shared between snippets. What the
-- snippets print is checked against what the README's comments say they print.
-- The lobby schematic ships in examples/data/.
local H = require "helpers.world"

local README = "README.md"
local LOBBY = "examples/data/limbo_spawn.schem"

-- The ```lua blocks of the README, in order: { first_line = n, lines = {...} }.
local function lua_blocks(text)
  local blocks, current, n = {}, nil, 0
  for line in (text .. "\n"):gmatch("(.-)\r?\n") do
    n = n + 1
    if current then
      if line:match("^```") then
        blocks[#blocks + 1] = current
        current = nil
      else
        current.lines[#current.lines + 1] = line
      end
    elseif line:match("^```lua%s*$") then
      current = { first_line = n + 1, lines = {} }
    end
  end
  return blocks
end

-- Run one block line by line in env, as the REPL does; what print wrote goes to out.
local function run_block(block, env)
  local pending_src, start = nil, nil
  for i, line in ipairs(block.lines) do
    local src = pending_src and (pending_src .. "\n" .. line) or line
    start = start or block.first_line + i - 1
    local chunk, err = load(src, "=README.md:" .. start, "t", env)
    if chunk then
      chunk()
      pending_src, start = nil, nil
    elseif err:match("<eof>$") then
      pending_src = src -- an open statement: the REPL reads the next line
    else
      error(err, 0)
    end
  end
  assert(pending_src == nil, "README.md:" .. tostring(start) .. ": a statement left open")
end

local text = assert(H.read_file(README))
local blocks = lua_blocks(text)
local has_lobby = H.read_file(LOBBY) ~= nil

describe("the README's Lua snippets", function()
  it("are found: the require line, the quick start, MC-CPP and the schematic", function()
    assert.is_true(#blocks >= 4)
    assert.equal('local bp = require "blockphys"', blocks[1].lines[1])
  end)

  it("run in order in one REPL session and print what their comments say", function()
    local printed = {}
    local env = setmetatable({}, { __index = _G })
    env.print = function(...) printed[#printed + 1] = table.pack(...) end
    for _, block in ipairs(blocks) do
      local needs_lobby = table.concat(block.lines, "\n"):find("limbo_spawn.schem", 1, true)
      if needs_lobby and not has_lobby then break end
      run_block(block, env)
    end
    -- Quick start: walked along +Z and stepped up onto the slab (y = 64.5), on the
    -- ground, x unchanged (yaw 0 faces +Z), past the slab's near edge at z = 3.
    local q = printed[1]
    assert.same({ 0.5, 64.5 }, { q[1], q[2] })
    assert.is_true(q[3] > 3 + H.F.half_width and q[3] < 7)
    assert.is_true(q[4])
    -- MC-CPP: one frame of 1/60 s and an interpolated position, all finite.
    for _, v in ipairs{ env.x, env.y, env.z } do
      assert.is_true(math.type(v) == "float" and v - v == 0) -- finite
    end
    if not has_lobby then
      pending("the lobby schematic is missing: " .. LOBBY)
      return
    end
    -- The lobby: every block placed (lobby_spec counts 2,176), none guessed.
    assert.same({ 2176, 0 }, { printed[2][1], printed[2][2] })
  end)
end)
