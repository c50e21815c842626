import { describe, expect, it } from "vitest";
import { serverReason } from "./server-reason.js";

describe("serverReason", () => {
  it("reads every dialect's error body", () => {
    expect(
      serverReason(
        '{"error":{"message":"Bad key","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}',
      ),
    ).toEqual({
      message: "Bad key",
      param: undefined,
      code: "invalid_api_key",
      type: "invalid_request_error",
    });
    expect(serverReason('{"error":"model \\"x\\" not found, try pulling it first"}').message).toBe(
      'model "x" not found, try pulling it first',
    );
    expect(
      serverReason(
        '{"object":"error","message":"The model `x` does not exist.","type":"NotFoundError","code":404}',
      ),
    ).toMatchObject({
      message: "The model `x` does not exist.",
      code: "404",
    });
    expect(serverReason('{"detail":"Not authenticated"}').message).toBe("Not authenticated");
    expect(serverReason('{"error":{"code":"404","message":"Resource not found"}}')).toMatchObject({
      message: "Resource not found",
      code: "404",
    });
    expect(
      serverReason(
        "<html><head><style>p{}</style></head><body><h1>502</h1> Bad   gateway</body></html>",
      ).message,
    ).toBe("502 Bad gateway");
  });
});
