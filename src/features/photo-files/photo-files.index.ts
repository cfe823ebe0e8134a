import { createRouter } from "@/platform/create-app";
import * as handlers from "./photo-files.handlers";
import * as routes from "./photo-files.routes";

/** Public: the signed link is the credential (auth/photo-url). */
export default createRouter().openapi(routes.getPhotoFile, handlers.getPhotoFile);
