#!/usr/bin/env node
require('./launch')(require('path').join(__dirname, '..', 'src', 'cli', 'main'));
