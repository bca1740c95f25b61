package sim;

import static io.gatling.javaapi.core.CoreDsl.*;
import static io.gatling.javaapi.http.HttpDsl.*;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;

// Two scenarios against the loopback server gatling.sh starts: requests whose names hold
// underscores and spaces, a group, and a request the server fails (a KO with a message).
public class Tiny extends Simulation {
  HttpProtocolBuilder httpProtocol = http.baseUrl(System.getProperty("base", "http://127.0.0.1:41850"));

  ScenarioBuilder browse =
      scenario("browse")
          .exec(http("home page").get("/fast"))
          .exec(http("search_items").get("/slow"));

  ScenarioBuilder buy =
      scenario("buy")
          .group("checkout")
          .on(exec(http("cart").get("/fast")).exec(http("pay").get("/fail").check(status().is(200))));

  {
    setUp(
            browse.injectOpen(constantUsersPerSec(20).during(3)),
            buy.injectOpen(atOnceUsers(6)))
        .protocols(httpProtocol);
  }
}
