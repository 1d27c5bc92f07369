# The Node server in a container (README "Running it in production"): built once here, started without a rebuild.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY --from=build /app/dist-server ./dist-server
COPY --from=build /app/drizzle ./drizzle
# The data folder (database, secret key, invoices, backups) is a volume owned by the unprivileged user.
RUN mkdir /data && chown node:node /data
USER node
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8787 DATA_DIR=/data
VOLUME /data
EXPOSE 8787
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:8787/api/health').then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Node itself is PID 1's child of no shell, so `docker stop`'s SIGTERM reaches it and it stops gracefully (25 s).
CMD ["node", "--enable-source-maps", "dist-server/node.js"]
