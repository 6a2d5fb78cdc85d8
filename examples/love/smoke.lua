-- smoke.lua: `love examples/love --smoke`, the demo's check in a real LÖVE (CI runs it
-- under Xvfb: make love-smoke). The player follows a scripted path through the lobby
-- (walk, turn, jump, strafe, sneak) on fixed frame times, then the last frame is
-- captured and checked: not blank (many distinct colours, a spread of brightness), the
-- player on it, and the player's path within the expected bounds. One summary line;
-- exit status 0, or 1 on any failure (main.lua's error handler exits 1 on a Lua error).
local smoke = {}
smoke.__index = smoke

-- The path, from the start on the roof terrace facing north (yaw 180, toward -Z).
-- Each step: seconds, forward, strafe (> 0 is left), turn (degrees per second, > 0
-- turns right), jump, sneak.
local SCRIPT = {
  { 0.4, 0, 0, 0, false, false },     -- land
  { 0.6, 1, 0, 0, false, false },     -- walk north
  { 0.5, 1, 0, -180, false, false },  -- curve left, to the west
  { 0.6, 1, 0, 0, true, false },      -- on, jumping onto the bench
  { 0.5, 1, 0, -180, false, false },  -- curve left again, to the south, off the bench
  { 1.5, 1, 0, 0, false, true },      -- sneak south
  { 0.6, 0, 1, 0, false, false },     -- strafe left (east)
  { 0.5, 0, 0, -180, false, false },  -- turn left, to the tower in the east
  { 0.3, 0, 0, 0, false, false },     -- stop
}
smoke.start_yaw = 180

-- Where the player must be at the end, relative to the start (blocks): a little north
-- of it, back on the terrace's floor (the run ends at (-0.38, +0.06, -1.10)). On the way
-- it must have gone at least 2 blocks west (the bench), risen at least 0.9 (the jump
-- onto it) and covered 6 blocks.
local END_BOX = { x = { -1, 0.5 }, y = { -0.2, 0.2 }, z = { -1.8, -0.4 } }
local MIN_WEST, MIN_PATH, MIN_RISE = -2, 6, 0.9
local PNG = "build/love-smoke.png"

-- root: the repository's folder (the screenshot goes to its build/).
function smoke.new(root)
  local self = setmetatable({ root = root, dt = 1 / 25, t = 0, frames = 0 }, smoke)
  self.duration = 0
  for _, s in ipairs(SCRIPT) do self.duration = self.duration + s[1] end
  return self
end

function smoke:begin(scene)
  self.scene = scene
  local p = scene.player
  self.start = { p.x, p.y, p.z }
  self.last = { p.x, p.z }
  self.path, self.rise, self.west, self.clock = 0, 0, 0, love.timer.getTime()
end

-- The scripted input at the run's current time.
function smoke:input()
  local t = self.t
  for _, s in ipairs(SCRIPT) do
    if t < s[1] then return s[2], s[3], s[4], s[5], s[6] end
    t = t - s[1]
  end
  return 0, 0, 0, false, false
end

function smoke:update(player)
  self.t = self.t + self.dt
  self.frames = self.frames + 1
  self.path = self.path + math.sqrt((player.x - self.last[1]) ^ 2 + (player.z - self.last[2]) ^ 2)
  self.last = { player.x, player.z }
  self.rise = math.max(self.rise, player.y - self.start[2])
  self.west = math.min(self.west, player.x - self.start[1])
end

-- The frame's colours: how many distinct ones (5 bits a channel), the spread of the
-- brightness, and how many pixels have the player's jacket colour (orange: red well
-- above green and far above blue, which nothing in the lobby has).
local function look_at(img)
  local seen, distinct, n, sum, sum2, orange = {}, 0, 0, 0, 0, 0
  for y = 0, img:getHeight() - 1, 2 do
    for x = 0, img:getWidth() - 1, 2 do
      local r, g, b = img:getPixel(x, y)
      local key = math.floor(r * 31) * 1024 + math.floor(g * 31) * 32 + math.floor(b * 31)
      if not seen[key] then seen[key], distinct = true, distinct + 1 end
      local l = 0.299 * r + 0.587 * g + 0.114 * b
      n, sum, sum2 = n + 1, sum + l, sum2 + l * l
      if r - g > 0.25 and r - b > 0.45 then orange = orange + 1 end
    end
  end
  local mean = sum / n
  return distinct, math.sqrt(math.max(0, sum2 / n - mean * mean)), orange
end

function smoke:draw()
  if self.t < self.duration or self.capturing then return end
  self.capturing = true
  love.graphics.captureScreenshot(function(img) self:finish(img) end)
end

function smoke:finish(img)
  local p, s = self.scene.player, self.start
  local dx, dy, dz = p.x - s[1], p.y - s[2], p.z - s[3]
  local distinct, spread, orange = look_at(img)
  local failures = {}
  local function check(ok, what) if not ok then failures[#failures + 1] = what end end
  check(distinct >= 64, ("%d distinct colours (want >= 64)"):format(distinct))
  check(spread >= 0.05, ("brightness spread %.3f (want >= 0.05)"):format(spread))
  check(orange >= 100, ("%d player pixels (want >= 100)"):format(orange))
  local function within(v, r) return v >= r[1] and v <= r[2] end
  check(within(dx, END_BOX.x) and within(dy, END_BOX.y) and within(dz, END_BOX.z),
    ("end offset (%.2f, %.2f, %.2f) outside x %s, y %s, z %s"):format(dx, dy, dz, table.concat(END_BOX.x, ".."),
      table.concat(END_BOX.y, ".."), table.concat(END_BOX.z, "..")))
  check(self.west <= MIN_WEST, ("went %.2f blocks west (want >= %g)"):format(-self.west, -MIN_WEST))
  check(self.path >= MIN_PATH, ("walked %.2f blocks (want >= %g)"):format(self.path, MIN_PATH))
  check(self.rise >= MIN_RISE, ("rose %.2f blocks (want >= %g)"):format(self.rise, MIN_RISE))
  check(p.on_ground, "not on the ground at the end")

  -- The screenshot, into the repository's build/ (LÖVE would write to its save folder).
  local path = self.root .. "/" .. PNG
  os.execute(('mkdir -p "%s/build"'):format(self.root))
  local f = io.open(path, "wb")
  if f then
    f:write(img:encode("png"):getString())
    f:close()
  else
    failures[#failures + 1] = "cannot write " .. path
  end

  local ok = #failures == 0
  print(("love-smoke: %s: %d frames (%.1f s of game time) in %.1f s; player from (%.2f, %.2f, %.2f) "
    .. "to (%.2f, %.2f, %.2f), path %.1f blocks, rose %.2f; frame %dx%d: %d colours, spread %.3f, "
    .. "%d player pixels; %s"):format(ok and "ok" or "FAILED", self.frames, self.t,
    love.timer.getTime() - self.clock, s[1], s[2], s[3], p.x, p.y, p.z, self.path, self.rise,
    img:getWidth(), img:getHeight(), distinct, spread, orange, path))
  for _, w in ipairs(failures) do print("love-smoke: failed: " .. w) end
  io.stdout:flush()
  love.event.quit(ok and 0 or 1)
end

return smoke
