-- wrk: enqueue distinct alerts, as the admin, round-robin into the sessions PREFIX-0 … PREFIX-(SESSIONS-1).
local admin = os.getenv("ADMIN")
local prefix = os.getenv("PREFIX")
local sessions = tonumber(os.getenv("SESSIONS"))
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local counter = 0
function request()
  counter = counter + 1
  local session = prefix .. "-" .. (counter % sessions)
  local body = '{"alert":"app/newMessages","params":{"count":1,"sender":"s"},"dedupeKey":"' .. prefix .. '-' .. tid .. '-' .. counter .. '"}'
  return wrk.format("POST", "/v1/sessions/" .. session .. "/queue",
    {["Authorization"] = "Bearer " .. admin, ["Content-Type"] = "application/json"}, body)
end
