-- wrk script: each request is a path drawn at random from the file named by WRK_PATHS
-- (one path per line), with the X-API-Key of MBOA_KEY when set.
local paths = {}

function init(args)
  local file = assert(io.open(os.getenv("WRK_PATHS"), "r"))
  for line in file:lines() do
    if #line > 0 then paths[#paths + 1] = line end
  end
  file:close()
  local key = os.getenv("MBOA_KEY")
  if key and #key > 0 then wrk.headers["X-API-Key"] = key end
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 100000)
end

function request()
  return wrk.format("GET", paths[math.random(#paths)])
end
