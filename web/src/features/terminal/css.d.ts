/** Style sheets imported by the terminal screen (Bun's bundler links them into the page). */
declare module '*.css';
