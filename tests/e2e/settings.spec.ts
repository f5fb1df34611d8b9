import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { signInByRequest } from "./helpers";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

test("organizations are added, edited and deleted", async ({ page }) => {
  await signInByRequest(page, { redirectTo: "/iam/orgs" });
  await expect(page.getByText("You have not added any organizations yet.")).toBeVisible();

  await page.getByRole("button", { name: "Add Organization" }).click();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Please enter the name of the organization")).toBeVisible();
  await expect(page.getByText("Please enter the address of the organization")).toBeVisible();
  await page.getByLabel("Company Name").fill("Northwind Ltd");
  await page.getByLabel("Company Address").fill("1 Harbour Road, Bristol");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Organization added")).toBeVisible();
  await expect(page.getByText("1 Harbour Road, Bristol")).toBeVisible();

  await page.getByRole("button", { name: "Edit Northwind Ltd" }).click();
  await page.getByLabel("Company Name").fill("Northwind Trading");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Organization updated")).toBeVisible();
  await expect(page.getByText("Northwind Trading")).toBeVisible();

  await page.getByRole("button", { name: "Edit Northwind Trading" }).click();
  await page.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Are you sure you want to delete this organization?")).toBeVisible();
  await page.getByRole("button", { name: "No" }).click();
  await page.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByText("Organization deleted")).toBeVisible();
  await expect(page.getByText("You have not added any organizations yet.")).toBeVisible();
});

test("name and photo are changed and shown in the header", async ({ page }) => {
  await signInByRequest(page, { redirectTo: "/iam/info" });

  await page.getByRole("button", { name: "Edit name" }).click();
  await page.getByLabel("Full Name").fill("");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Please enter your full name")).toBeVisible();
  await page.getByLabel("Full Name").fill("Priya Patel");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("profile-name")).toHaveText("Priya Patel");

  // An HTML file named .png is refused by its bytes, not its name.
  await page
    .locator("#photo-input")
    .setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: Buffer.from("<html><body>hi</body></html>") });
  await expect(page.getByText("Unsupported image type. We support JPEG, PNG and WebP.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Open account menu" }).locator("img")).toHaveCount(0);

  // A photo over 5 MB (a phone camera's 8 MB) is refused on the page, before it is sent; the page stays.
  // A file on disk, which the local browser reads itself (a buffer would first cross the protocol).
  const camera = test.info().outputPath("camera.jpg");
  await writeFile(camera, Buffer.alloc(8 * 1024 * 1024, 0xff));
  await page.locator("#photo-input").setInputFiles(camera);
  await expect(page.getByText("The image is too large. Please choose one of at most 5 MB.")).toBeVisible();
  await expect(page.getByTestId("profile-name")).toHaveText("Priya Patel");

  await page.locator("#photo-input").setInputFiles(fixture("avatar.png"));
  const headerPhoto = page.getByRole("button", { name: "Open account menu" }).locator("img");
  await expect(headerPhoto).toHaveCount(1);
  const src = await headerPhoto.getAttribute("src");
  expect(src).toMatch(/^\/images\/[a-z0-9]+\/[a-z0-9]+\?expires=\d+&sig=[0-9a-f]{64}$/);
  const res = await page.request.get(src!);
  expect(res.headers()["content-type"]).toBe("image/png");
  expect(res.headers()["x-content-type-options"]).toBe("nosniff");

  await page.getByRole("button", { name: "Open account menu" }).click();
  await expect(page.getByRole("dialog", { name: "Menu" })).toContainText("Priya Patel");
});
