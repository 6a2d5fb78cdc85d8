-- view3d.lua: the 3-D view of the demo. The world's block boxes become one static
-- mesh (faces against a whole opaque neighbour left out, glass in a second mesh drawn
-- after the rest), the entities' boxes a mesh refilled every frame; one shader projects
-- them with our own camera matrix and fades them into the sky with distance.
local view3d = {}

-- Matrices: 16 numbers, row-major (sent to the shader with "row" layout). ------------

local function mat_mul(a, b)
  local m = {}
  for r = 0, 3 do
    for c = 0, 3 do
      local s = 0
      for k = 0, 3 do s = s + a[r * 4 + k + 1] * b[k * 4 + c + 1] end
      m[r * 4 + c + 1] = s
    end
  end
  return m
end

local function perspective(fovy_deg, aspect, near, far)
  local f = 1 / math.tan(math.rad(fovy_deg) / 2)
  return { f / aspect, 0, 0, 0,
           0, f, 0, 0,
           0, 0, (far + near) / (near - far), 2 * far * near / (near - far),
           0, 0, -1, 0 }
end

-- A right-handed view (the world's axes: +X east, +Y up, +Z south) from eye toward dir.
local function look(ex, ey, ez, dx, dy, dz)
  local fl = math.sqrt(dx * dx + dy * dy + dz * dz)
  local fx, fy, fz = dx / fl, dy / fl, dz / fl
  local sx, sy, sz = fy * 0 - fz * 1, fz * 0 - fx * 0, fx * 1 - fy * 0 -- f x up
  local sl = math.sqrt(sx * sx + sy * sy + sz * sz)
  sx, sy, sz = sx / sl, sy / sl, sz / sl
  local ux, uy, uz = sy * fz - sz * fy, sz * fx - sx * fz, sx * fy - sy * fx
  return { sx, sy, sz, -(sx * ex + sy * ey + sz * ez),
           ux, uy, uz, -(ux * ex + uy * ey + uz * ez),
           -fx, -fy, -fz, fx * ex + fy * ey + fz * ez,
           0, 0, 0, 1 }
end

-- The shader: our matrix instead of LÖVE's 2-D one, and distance fog. ------------------

local SHADER = [[
uniform mat4 u_viewproj;
uniform vec3 u_eye;
uniform vec3 u_fog;
uniform vec2 u_fog_range;
varying float v_fog;
#ifdef VERTEX
vec4 position(mat4 transform_projection, vec4 vertex_position) {
  float f = clamp((distance(vertex_position.xyz, u_eye) - u_fog_range.x) / (u_fog_range.y - u_fog_range.x), 0.0, 1.0);
  v_fog = f * f;
  return u_viewproj * vertex_position;
}
#endif
#ifdef PIXEL
vec4 effect(vec4 color, Image tex, vec2 tc, vec2 sc) {
  vec4 c = color * Texel(tex, tc);
  return vec4(mix(c.rgb, u_fog, v_fog), c.a);
}
#endif
]]

local FORMAT = { { "VertexPosition", "float", 3 }, { "VertexTexCoord", "float", 2 }, { "VertexColor", "byte", 4 } }

-- The blocks' texture, one block face: a little grain and a darker rim, so that
-- blocks read as blocks. Texture coordinates are world units along the face.
local function block_texture()
  local size = 16
  local data = love.image.newImageData(size, size)
  local rng = love.math.newRandomGenerator(24)
  for y = 0, size - 1 do
    for x = 0, size - 1 do
      local rim = (x == 0 or y == 0 or x == size - 1 or y == size - 1) and 0.82 or 1
      local v = rim * (0.93 + 0.07 * rng:random())
      data:setPixel(x, y, v, v, v, 1)
    end
  end
  local img = love.graphics.newImage(data, { mipmaps = true })
  img:setFilter("linear", "nearest")
  img:setMipmapFilter("linear")
  img:setWrap("repeat", "repeat")
  return img
end

-- Block colours: the lobby's blocks by name, anything else a colour from its name. ----

local COLOURS = {
  { "end_stone", 0.87, 0.87, 0.62 },      { "purple_terracotta", 0.46, 0.28, 0.34 },
  { "blue_terracotta", 0.29, 0.24, 0.36 }, { "purpur", 0.66, 0.49, 0.66 },
  { "purple_carpet", 0.48, 0.17, 0.67 },   { "gray_carpet", 0.25, 0.27, 0.28 },
  { "jungle_leaves", 0.19, 0.50, 0.12 },   { "purple_stained_glass", 0.50, 0.25, 0.70, 0.55 },
  { "yellow_stained_glass", 0.90, 0.90, 0.20, 0.55 }, { "glass", 0.75, 0.85, 0.90, 0.4 },
  { "birch", 0.76, 0.69, 0.48 },           { "sandstone", 0.85, 0.80, 0.61 },
  { "end_rod", 0.96, 0.94, 0.90 },         { "sea_lantern", 0.75, 0.90, 0.86 },
  { "player_head", 0.35, 0.24, 0.16 },     { "bookshelf", 0.47, 0.35, 0.20 },
  { "stone", 0.5, 0.5, 0.5 },              { "grass", 0.36, 0.6, 0.25 },
}

local function block_colour(name)
  local n = name:gsub("^minecraft:", ""):gsub("%[.*", "")
  for _, c in ipairs(COLOURS) do
    if n:find(c[1], 1, true) then return c[2], c[3], c[4], c[5] or 1 end
  end
  local h = 0
  for i = 1, #n do h = (h * 31 + n:byte(i)) % 360 end
  return 0.55 + 0.3 * math.cos(math.rad(h)), 0.55 + 0.3 * math.cos(math.rad(h - 120)),
    0.55 + 0.3 * math.cos(math.rad(h + 120)), 1
end

-- Face shading as Minecraft's: top full, bottom half, X sides 0.8, Z sides 0.65.
local SHADE = { top = 1.0, bottom = 0.5, x = 0.8, z = 0.65 }

-- Vertex lists: v.n vertices (tables of position, texture coordinate and colour), the
-- tables reused when a list is refilled (view3d.reset), so that a frame allocates little.
local function put(v, p, l, r, g, b, a)
  local n = v.n + 1
  v.n = n
  local t = v[n]
  if not t then t = {}; v[n] = t end
  t[1], t[2], t[3], t[4], t[5] = p[1], p[2], p[3], p[4] or 0, p[5] or 0
  t[6], t[7], t[8], t[9] = r * l, g * l, b * l, a
end

function view3d.list() return { n = 0 } end
-- Appends a copy of vertex t (one of another list's).
function view3d.add_vertex(v, t) put(v, t, 1, t[6], t[7], t[8], t[9]) end
function view3d.reset(v) v.n = 0 end
-- Drops the tables past v.n (before the list is handed to a mesh).
function view3d.trim(v) for i = v.n + 1, #v do v[i] = nil end end

-- Appends the two triangles of a quad (corners in order) to list v, each corner's colour
-- times its light (l1..l4, default 1). Of the two diagonals, the one between the
-- brighter pair splits it, so that one dark corner does not shade both triangles.
local function quad(v, r, g, b, a, p1, p2, p3, p4, l1, l2, l3, l4)
  l1, l2, l3, l4 = l1 or 1, l2 or 1, l3 or 1, l4 or 1
  if l2 + l4 > l1 + l3 then
    put(v, p2, l2, r, g, b, a); put(v, p3, l3, r, g, b, a); put(v, p4, l4, r, g, b, a)
    put(v, p2, l2, r, g, b, a); put(v, p4, l4, r, g, b, a); put(v, p1, l1, r, g, b, a)
  else
    put(v, p1, l1, r, g, b, a); put(v, p2, l2, r, g, b, a); put(v, p3, l3, r, g, b, a)
    put(v, p1, l1, r, g, b, a); put(v, p3, l3, r, g, b, a); put(v, p4, l4, r, g, b, a)
  end
end

-- A box's faces: name, shade, the axis of the normal (1 x, 2 y, 3 z) and its sign, and
-- the corners, each as min (1) or max (2) on x, y and z.
local FACES = {
  { "top", SHADE.top, 2, 1, { { 1, 2, 1 }, { 1, 2, 2 }, { 2, 2, 2 }, { 2, 2, 1 } } },
  { "bottom", SHADE.bottom, 2, -1, { { 1, 1, 1 }, { 2, 1, 1 }, { 2, 1, 2 }, { 1, 1, 2 } } },
  { "-x", SHADE.x, 1, -1, { { 1, 1, 1 }, { 1, 1, 2 }, { 1, 2, 2 }, { 1, 2, 1 } } },
  { "+x", SHADE.x, 1, 1, { { 2, 1, 1 }, { 2, 2, 1 }, { 2, 2, 2 }, { 2, 1, 2 } } },
  { "-z", SHADE.z, 3, -1, { { 1, 1, 1 }, { 1, 2, 1 }, { 2, 2, 1 }, { 2, 1, 1 } } },
  { "+z", SHADE.z, 3, 1, { { 1, 1, 2 }, { 2, 1, 2 }, { 2, 2, 2 }, { 1, 2, 2 } } },
}

-- The faces of box {x1, y1, z1, x2, y2, z2} into list v, shaded by direction.
-- skip(face) drops a face; light(face, corner) gives a corner's light (0..1).
local function add_box(v, box, r, g, b, a, skip, light)
  for _, f in ipairs(FACES) do
    if not (skip and skip(f)) then
      local p, l = {}, {}
      local u, w = f[3] % 3 + 1, (f[3] + 1) % 3 + 1 -- the two axes along the face
      for i, c in ipairs(f[5]) do
        local q = { box[c[1] * 3 - 2], box[c[2] * 3 - 1], box[c[3] * 3] }
        p[i] = { q[1], q[2], q[3], q[u], q[w] }
        l[i] = light and light(f, c) or 1
      end
      local k = f[2]
      quad(v, r * k, g * k, b * k, a, p[1], p[2], p[3], p[4], l[1], l[2], l[3], l[4])
    end
  end
end
view3d.add_box = function(v, x1, y1, z1, x2, y2, z2, r, g, b, a)
  add_box(v, { x1, y1, z1, x2, y2, z2 }, r, g, b, a)
end

-- A small variation per block (a stable hash of its cell), so that a wall of one
-- block type reads as blocks rather than one flat colour.
local function jitter(x, y, z)
  local h = (x * 73856093 + y * 19349663 + z * 83492791) % 1000
  return 0.93 + 0.10 * h / 1000
end

-- Ambient occlusion: a corner's light by how many of the three cells around it, in
-- the layer in front of the face, hold a whole opaque block.
local AO = { [0] = 1, 0.80, 0.66, 0.52 }

-- Static meshes of every block box in the region (inclusive cell corners).
function view3d.build_world(world, x1, y1, z1, x2, y2, z2)
  local info = {}
  local function block(id)
    local b = info[id]
    if not b then
      local i = world:block_info(id)
      local r, g, bl, a = block_colour(i.name)
      b = { boxes = i.boxes, opaque = i.normal_cube, r = r, g = g, b = bl, a = a }
      info[id] = b
    end
    return b
  end
  local function opaque(x, y, z)
    local id = world:get_block(x, y, z)
    return id ~= 0 and block(id).opaque
  end
  local solid, glass = view3d.list(), view3d.list()
  for y = y1, y2 do
    for z = z1, z2 do
      for x = x1, x2 do
        local id = world:get_block(x, y, z)
        if id ~= 0 then
          local b = block(id)
          local k = jitter(x, y, z)
          local out = b.a < 1 and glass or solid
          for _, lb in ipairs(b.boxes) do
            -- The face's neighbour layer: the next cell's when the face lies on the
            -- cell's boundary, else the cell's own (a slab's top among full blocks).
            local function front(f)
              local plane = lb[(f[4] > 0 and 3 or 0) + f[3]]
              return (f[4] > 0 and plane == 1 or f[4] < 0 and plane == 0) and f[4] or 0
            end
            -- A face on the boundary is hidden by a whole opaque neighbour, and a glass
            -- face by the same glass.
            local function skip(f)
              local off = front(f)
              if off == 0 then return false end
              local n = { x, y, z }
              n[f[3]] = n[f[3]] + off
              local nid = world:get_block(n[1], n[2], n[3])
              return nid ~= 0 and (block(nid).opaque or (b.a < 1 and nid == id))
            end
            local function light(f, c)
              local o = { x, y, z }
              o[f[3]] = o[f[3]] + front(f)
              local u, w = f[3] % 3 + 1, (f[3] + 1) % 3 + 1 -- the two in-plane axes
              local du, dw = c[u] == 1 and -1 or 1, c[w] == 1 and -1 or 1
              local s1 = { o[1], o[2], o[3] }
              s1[u] = s1[u] + du
              local s2 = { o[1], o[2], o[3] }
              s2[w] = s2[w] + dw
              local sc = { s1[1], s1[2], s1[3] }
              sc[w] = sc[w] + dw
              local a1, a2 = opaque(s1[1], s1[2], s1[3]), opaque(s2[1], s2[2], s2[3])
              if a1 and a2 then return AO[3] end
              return AO[(a1 and 1 or 0) + (a2 and 1 or 0) + (opaque(sc[1], sc[2], sc[3]) and 1 or 0)]
            end
            add_box(out, { x + lb[1], y + lb[2], z + lb[3], x + lb[4], y + lb[5], z + lb[6] },
              b.r * k, b.g * k, b.b * k, b.a, skip, light)
          end
        end
      end
    end
  end
  local meshes, texture = {}, block_texture()
  if solid.n > 0 then meshes.opaque = love.graphics.newMesh(FORMAT, solid, "triangles", "static") end
  if glass.n > 0 then meshes.glass = love.graphics.newMesh(FORMAT, glass, "triangles", "static") end
  for _, m in pairs(meshes) do m:setTexture(texture) end
  meshes.triangles = (solid.n + glass.n) / 3
  return meshes
end

-- The renderer: shader, camera, dynamic mesh. -------------------------------------------

local Renderer = {}
Renderer.__index = Renderer

function view3d.new(opts)
  local self = setmetatable({}, Renderer)
  self.shader = love.graphics.newShader(SHADER)
  self.fog = opts.fog or { 0.62, 0.66, 0.86 }
  self.fog_range = opts.fog_range or { 30, 110 }
  self.fovy = opts.fovy or 70
  self.dynamic, self.dynamic_size = nil, 0
  return self
end

-- Sets the camera: eye position and looking direction.
function Renderer:camera(ex, ey, ez, dx, dy, dz)
  local w, h = love.graphics.getDimensions()
  local vp = mat_mul(perspective(self.fovy, w / h, 0.05, 400), look(ex, ey, ez, dx, dy, dz))
  self.shader:send("u_viewproj", "row", vp)
  self.shader:send("u_eye", { ex, ey, ez })
  self.shader:send("u_fog", self.fog)
  self.shader:send("u_fog_range", self.fog_range)
end

-- Draws the static meshes and then a vertex list (entities, shadows), refilled every
-- frame into one reused mesh that grows when needed.
function Renderer:draw(meshes, vertices)
  love.graphics.push("all")
  love.graphics.setShader(self.shader)
  love.graphics.setDepthMode("lequal", true)
  love.graphics.setColor(1, 1, 1, 1)
  if meshes.opaque then love.graphics.draw(meshes.opaque) end
  if vertices.n > 0 then
    view3d.trim(vertices)
    if vertices.n > self.dynamic_size then
      self.dynamic_size = math.max(vertices.n, 2 * self.dynamic_size)
      self.dynamic = love.graphics.newMesh(FORMAT, self.dynamic_size, "triangles", "stream")
    end
    self.dynamic:setVertices(vertices)
    self.dynamic:setDrawRange(1, vertices.n)
    love.graphics.draw(self.dynamic)
  end
  if meshes.glass then
    love.graphics.setDepthMode("lequal", false)
    love.graphics.draw(meshes.glass)
  end
  love.graphics.pop()
end

-- A box turned by yaw about the vertical axis through (cx, cz): it reaches `front`
-- blocks ahead (yaw's facing, as Beta: 0 faces +Z, 90 faces -X) and `back` behind,
-- `half` to either side, from height y1 to y2. Sides shaded by how they face.
function view3d.add_turned_box(v, cx, cz, yaw, half, back, front, y1, y2, r, g, b, a)
  local s, c = math.sin(math.rad(yaw)), math.cos(math.rad(yaw))
  local fx, fz, rx, rz = -s, c, c, s -- forward and its perpendicular
  local function at(u, w, y) return { cx + fx * u + rx * w, y, cz + fz * u + rz * w } end
  local p = {
    at(-back, -half, y1), at(front, -half, y1), at(front, half, y1), at(-back, half, y1),
    at(-back, -half, y2), at(front, -half, y2), at(front, half, y2), at(-back, half, y2),
  }
  local function side(nx, nz) return SHADE.x * nx * nx + SHADE.z * nz * nz end
  quad(v, r, g, b, a, p[5], p[6], p[7], p[8])
  local k = SHADE.bottom
  quad(v, r * k, g * k, b * k, a, p[1], p[4], p[3], p[2])
  k = side(fx, fz)
  quad(v, r * k, g * k, b * k, a, p[2], p[3], p[7], p[6]) -- front
  quad(v, r * k, g * k, b * k, a, p[1], p[5], p[8], p[4]) -- back
  k = side(rx, rz)
  quad(v, r * k, g * k, b * k, a, p[3], p[4], p[8], p[7])
  quad(v, r * k, g * k, b * k, a, p[1], p[2], p[6], p[5])
end

-- A flat disc (an octagon) at height y: an entity's shadow on the ground.
function view3d.add_disc(v, cx, y, cz, radius, r, g, b, a)
  local centre = { cx, y, cz }
  for i = 0, 7 do
    local a1, a2 = i * math.pi / 4, (i + 1) * math.pi / 4
    put(v, centre, 1, r, g, b, a)
    put(v, { cx + radius * math.cos(a2), y, cz + radius * math.sin(a2) }, 1, r, g, b, 0)
    put(v, { cx + radius * math.cos(a1), y, cz + radius * math.sin(a1) }, 1, r, g, b, 0)
  end
end

view3d.block_colour = block_colour
return view3d
